// What the document worker needs only when a job runs: the renderers, the seal and the seal
// identity stores (pdf-lib, fontkit, node-forge, the KMS and Secrets Manager clients). evidence-pdf.ts
// loads this module on first use, so none of it weighs on the worker's cold start.
export { renderCertificate } from '#shared/pdf/certificate';
export { renderFinalDocument } from '#shared/pdf/final-document';
export { addLongTermValidation } from '#shared/pdf/ltv';
export { sealPdf } from '#shared/pdf/seal';
export { createKmsClient } from '../aws/clients';
export { createSecretsManagerClient } from '../aws/secrets-manager-client';
export { createKmsSealIdentity } from '../sealing/kms-seal-identity';
export { createLocalSealChains } from '../sealing/local-seal-chains';
export { createSecretsManagerSealChains } from '../sealing/secrets-manager-seal-chains';
export { createSecretsManagerSealIdentity } from '../sealing/secrets-manager-seal-identity';
