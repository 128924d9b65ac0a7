// The evidence renderers and the seal (shared/pdf/) behind the TEvidencePdf port, with the seal
// identity of the stage: a Secrets Manager secret on AWS, a folder of the data directory locally.
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { TConfig } from '../../config';
import { renderCertificate } from '../../pdf/certificate';
import { renderFinalDocument } from '../../pdf/final-document';
import { sealPdf } from '../../pdf/seal';
import type { TEvidencePdf, TSealIdentityStore } from '../../ports';
import { createLocalSealIdentity } from '../sealing/local-seal-identity';
import { createSecretsManagerSealIdentity } from '../sealing/secrets-manager-seal-identity';

/** The seal identity `config.seal` names; none configured: every seal fails (only the document worker seals). */
export function sealIdentityFromConfig(config: TConfig): TSealIdentityStore {
  const seal = config.seal;
  if (seal?.kind === 'secrets-manager') {
    const client = new SecretsManagerClient({
      region: config.region,
      ...(config.endpoints.secretsmanager ? { endpoint: config.endpoints.secretsmanager } : {}),
      ...(config.credentials ? { credentials: config.credentials } : {}),
    });
    return createSecretsManagerSealIdentity(client, seal.secretId);
  }
  if (seal?.kind === 'local') return createLocalSealIdentity(seal.dir);
  return {
    get: () => Promise.reject(new Error('No seal identity is configured (SEAL_SECRET_ID).')),
  };
}

/** Renders with the seal's common name in the "sealed by" notes, and seals with the identity. */
export function createEvidencePdf(identity: TSealIdentityStore): TEvidencePdf {
  const sealedBy = async () => (await identity.get()).commonName;
  return {
    async renderFinal(input) {
      // Interim files are not sealed: their audit page names no seal.
      if (input.interim) return renderFinalDocument(input);
      return renderFinalDocument({ ...input, audit: { ...input.audit, sealedBy: await sealedBy() } });
    },
    async renderCertificate(input) {
      return renderCertificate({ ...input, sealedBy: await sealedBy() });
    },
    async seal(pdf, info) {
      return sealPdf(pdf, await identity.get(), info);
    },
  };
}
