// The evidence renderers and the seal (shared/pdf/) behind the TEvidencePdf port, with the seal
// identity of the stage: a Secrets Manager secret on AWS, a folder of the data directory locally.
import type { TConfig } from '../../config';
import type { TEvidencePdf, TSealIdentityStore, TTimestamper } from '../../ports';

/** Loaded on first use: see evidence-renderers.ts. */
const renderers = () => import('./evidence-renderers');

/** The seal identity `config.seal` names; none configured: every seal fails (only the document worker seals). */
export function sealIdentityFromConfig(config: TConfig): TSealIdentityStore {
  const seal = config.seal;
  let store: Promise<TSealIdentityStore> | undefined;
  const open = async (): Promise<TSealIdentityStore> => {
    const r = await renderers();
    if (seal?.kind === 'secrets-manager') {
      const client = new r.SecretsManagerClient({
        region: config.region,
        ...(config.endpoints.secretsmanager ? { endpoint: config.endpoints.secretsmanager } : {}),
        ...(config.credentials ? { credentials: config.credentials } : {}),
      });
      return r.createSecretsManagerSealIdentity(client, seal.secretId);
    }
    if (seal?.kind === 'local') return r.createLocalSealIdentity(seal.dir);
    return { get: () => Promise.reject(new Error('No seal identity is configured (SEAL_SECRET_ID).')) };
  };
  return {
    get: async () => {
      store ??= open();
      return (await store).get();
    },
  };
}

/**
 * Renders with the seal's common name in the "sealed by" notes, and seals with the identity:
 * PAdES B-T, each seal stamped by the first of `timestamps`' authorities to give a valid token
 * (none: the seal fails, TimestampUnavailableError, and the job is retried); B-B without them.
 */
export function createEvidencePdf(
  identity: TSealIdentityStore,
  timestamps?: TConfig['timestamps'],
): TEvidencePdf {
  const sealedBy = async () => (await identity.get()).commonName;
  // Loaded on first seal, like the renderers: pkijs stays out of the cold start.
  let timestamper: Promise<TTimestamper> | undefined;
  const stamp = timestamps?.tsas.length
    ? async (imprint: Buffer) => {
        timestamper ??= import('../timestamps/tsa-timestamper').then((m) =>
          m.createTsaTimestamper(timestamps.tsas),
        );
        return (await (await timestamper).timestamp(imprint)).token;
      }
    : undefined;
  return {
    async renderFinal(input) {
      // Interim files are not sealed: their audit page names no seal.
      const { renderFinalDocument } = await renderers();
      if (input.interim) return renderFinalDocument(input);
      return renderFinalDocument({ ...input, audit: { ...input.audit, sealedBy: await sealedBy() } });
    },
    async renderCertificate(input) {
      const { renderCertificate } = await renderers();
      return renderCertificate({ ...input, sealedBy: await sealedBy() });
    },
    async seal(pdf, info) {
      const { sealPdf } = await renderers();
      return sealPdf(pdf, await identity.get(), info, stamp);
    },
  };
}
