// What the document worker needs only when a job runs: the renderers, the seal and the seal
// identity stores (pdf-lib, fontkit, node-forge, the Secrets Manager client). evidence-pdf.ts
// loads this module on first use, so none of it weighs on the worker's cold start.
export { renderCertificate } from '../../pdf/certificate';
export { renderFinalDocument } from '../../pdf/final-document';
export { addLongTermValidation } from '../../pdf/ltv';
export { sealPdf } from '../../pdf/seal';
export { createSecretsManagerClient } from '../aws/secrets-manager-client';
export { createLocalSealIdentity } from '../sealing/local-seal-identity';
export { createSecretsManagerSealIdentity } from '../sealing/secrets-manager-seal-identity';
