// The evidence renderers and the seal (shared/pdf/) behind the TEvidencePdf port, with the seal
// identity of the stage: a KMS key and its chain (a secret on AWS, a folder of the data directory
// locally), or the PKCS #12 secret of older deployments.
import type { TConfig } from '#shared/config';
import type {
  TEvidencePdf,
  TSealIdentityStore,
  TTimestamper,
  TValidationDataCollector,
} from '#shared/domain/ports/evidence';

/** Loaded on first use: see evidence-renderers.ts. */
const renderers = () => import('./evidence-renderers');

/** The seal identity `config.seal` names; none configured: every seal fails (only the document worker seals). */
export function sealIdentityFromConfig(config: TConfig): TSealIdentityStore {
  const seal = config.seal;
  let store: Promise<TSealIdentityStore> | undefined;
  const open = async (): Promise<TSealIdentityStore> => {
    const r = await renderers();
    if (seal?.kind === 'secrets-manager') {
      const client = r.createSecretsManagerClient(config);
      return r.createSecretsManagerSealIdentity(client, seal.secretId);
    }
    if (seal?.kind === 'kms') {
      const chains =
        seal.chains.kind === 'local'
          ? r.createLocalSealChains(seal.chains.dir, seal.name)
          : r.createSecretsManagerSealChains(
              r.createSecretsManagerClient(config),
              seal.name,
              seal.chains.secretId,
            );
      const fallback = seal.fallbackSecretId
        ? r.createSecretsManagerSealIdentity(r.createSecretsManagerClient(config), seal.fallbackSecretId)
        : undefined;
      return r.createKmsSealIdentity({
        kms: r.createKmsClient(config),
        chains,
        keyId: seal.keyId,
        name: seal.name,
        ...(fallback ? { fallback } : {}),
      });
    }
    return {
      get: () => Promise.reject(new Error('No seal identity is configured (SEAL_KEY_ID or SEAL_SECRET_ID).')),
    };
  };
  return {
    get: async (accountId) => {
      store ??= open();
      return (await store).get(accountId);
    },
  };
}

/** How long the authorities' credentials, once read, are used before they are read again. */
const CREDENTIALS_TTL_MS = 5 * 60_000;

/**
 * The authorities of `config.timestamps`, with their credentials from its secret, as a
 * timestamper: made on first use (pkijs stays out of the cold start) and kept for a few minutes;
 * a failure to make it (an unreadable credentials secret) is not kept, so the next seal tries again.
 */
function timestamperFromConfig(config: TConfig): (() => Promise<TTimestamper>) | undefined {
  const timestamps = config.timestamps;
  if (!timestamps?.tsas.length) return undefined;
  let made: Promise<TTimestamper> | undefined;
  const make = async () => {
    const [{ createTsaTimestamper }, { readTsaCredentials }] = await Promise.all([
      import('../timestamps/tsa-timestamper'),
      import('../timestamps/tsa-credentials'),
    ]);
    const credentials = timestamps.credentialsSecretId
      ? await readTsaCredentials(config, timestamps.credentialsSecretId)
      : {};
    return createTsaTimestamper(
      timestamps.tsas.map((t) => ({ ...t, headers: { ...t.headers, ...credentials[t.url] } })),
    );
  };
  let madeAt = 0;
  return () => {
    // Read again now and then: credentials the operator stores later reach running instances.
    if (Date.now() - madeAt > CREDENTIALS_TTL_MS) made = undefined;
    if (!made) {
      madeAt = Date.now();
      made = make().catch((err: unknown) => {
        made = undefined;
        throw err;
      });
    }
    return made;
  };
}

/**
 * Where the certificates' issuers, OCSP answers and CRLs are read: http(s), public addresses on
 * AWS (the URLs come from certificates, so they are guarded like a sender's file_url), the
 * local CA's loopback address locally.
 */
function validationDataFromConfig(config: TConfig): () => Promise<TValidationDataCollector> {
  let made: Promise<TValidationDataCollector> | undefined;
  return () => {
    made ??= Promise.all([
      import('../validation/collect-validation-data'),
      import('../fetch/safe-fetch'),
    ]).then(([{ createValidationDataCollector }, { createSafeFetcher }]) => {
      const fetchUrl = createSafeFetcher({
        allowHttp: true,
        allowLoopback: config.fetch?.allowLoopback ?? false,
        maxBytes: VALIDATION_DATA_MAX_BYTES,
        timeoutMs: 10_000,
        maxRedirects: 3,
      });
      return createValidationDataCollector(async (url) => (await fetchUrl(url)).bytes);
    });
    return made;
  };
}

/** A CRL of a large public CA runs to a few MB. */
const VALIDATION_DATA_MAX_BYTES = 20 * 1024 * 1024;

/**
 * Renders with the seal's common name in the "sealed by" notes, and seals with the identity:
 * each seal stamped by the first of the configured authorities to give a valid token (none: the
 * seal fails, TimestampUnavailableError, and the job is retried), then its validation data and
 * an archive timestamp added (PAdES B-LTA; B-T if configured so); B-B without authorities.
 */
export function createEvidencePdf(identity: TSealIdentityStore, config?: TConfig): TEvidencePdf {
  const sealedBy = async (accountId?: string) => (await identity.get(accountId)).commonName;
  const timestamper = config ? timestamperFromConfig(config) : undefined;
  const stamp = timestamper
    ? async (imprint: Buffer) => (await (await timestamper()).timestamp(imprint)).token
    : undefined;
  const validation =
    config && stamp && config.timestamps?.level !== 'B-T' ? validationDataFromConfig(config) : undefined;
  return {
    async renderFinal(input, accountId) {
      // Interim files are not sealed: their audit page names no seal.
      const { renderFinalDocument } = await renderers();
      if (input.interim) return renderFinalDocument(input);
      return renderFinalDocument({
        ...input,
        audit: { ...input.audit, sealedBy: await sealedBy(accountId) },
      });
    },
    async renderCertificate(input, accountId) {
      const { renderCertificate } = await renderers();
      return renderCertificate({ ...input, sealedBy: await sealedBy(accountId) });
    },
    async seal(pdf, { accountId, ...info }) {
      const { sealPdf, addLongTermValidation } = await renderers();
      const sealed = await sealPdf(pdf, await identity.get(accountId), info, stamp);
      if (!stamp || !validation) return sealed;
      return addLongTermValidation(Buffer.from(sealed), { validation: await validation(), stamp });
    },
  };
}
