// The seal identity on AWS: a Secrets Manager secret holding `{"p12": <base64 PKCS #12>,
// "passphrase": …}`. The stack creates the secret without an identity in it (no value, or any
// value that is not that JSON, such as the random password CDK puts in a new secret); the first
// process that finds it so
// makes an identity and stores it with a fixed ClientRequestToken, so cold starts racing on an
// empty secret write one version between them (Secrets Manager treats the same token with other
// contents as a conflict, and the loser then reads the winner's). Read once per process.
//
// Why Secrets Manager and not KMS: a PAdES seal needs the CMS signed by the certificate's key,
// which KMS could do (asymmetric RSA keys, Sign with RSASSA_PKCS1_V1_5_SHA_256), but KMS keeps
// no certificate and cannot make one; the self-signed certificate would still have to be kept
// elsewhere, and every seal would be a network call. A secret holds both together, costs one read
// per cold start, and can be replaced by an operator with a certificate from a trusted CA
// (same JSON shape) without a code change.
import {
  GetSecretValueCommand,
  PutSecretValueCommand,
  ResourceNotFoundException,
  type SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import forge from 'node-forge';
import { newSealIdentity, type TSealIdentity } from '#shared/pdf/seal';

/** The first version's token: the same in every process, so concurrent first writes agree. */
export const FIRST_VERSION_TOKEN = 'open-esign-seal-identity-v1-0000000000';
const COMMON_NAME = 'Open eSignature service seal';

interface TSecretValue {
  p12: string;
  passphrase: string;
}

export function createSecretsManagerSealIdentity(
  client: SecretsManagerClient,
  secretId: string,
): { get(): Promise<TSealIdentity> } {
  let loading: Promise<TSealIdentity> | undefined;
  return {
    get() {
      loading ??= load(client, secretId).catch((err) => {
        loading = undefined;
        throw err;
      });
      return loading;
    },
  };
}

async function load(client: SecretsManagerClient, secretId: string): Promise<TSealIdentity> {
  const existing = await read(client, secretId);
  if (existing) return existing;
  const identity = newSealIdentity(COMMON_NAME);
  const value: TSecretValue = { p12: identity.p12.toString('base64'), passphrase: identity.passphrase };
  try {
    await client.send(
      new PutSecretValueCommand({
        SecretId: secretId,
        SecretString: JSON.stringify(value),
        ClientRequestToken: FIRST_VERSION_TOKEN,
      }),
    );
  } catch (err) {
    // Another process stored its identity under the same token first: use that one.
    if ((err as Error).name !== 'ResourceExistsException') throw err;
  }
  // Read back rather than keep ours: whichever write won is the identity everyone uses.
  const stored = await read(client, secretId);
  if (!stored) throw new Error(`The seal identity secret ${secretId} is still empty after writing it`);
  return stored;
}

async function read(client: SecretsManagerClient, secretId: string): Promise<TSealIdentity | undefined> {
  let text: string | undefined;
  try {
    const out = await client.send(new GetSecretValueCommand({ SecretId: secretId }));
    text = out.SecretString;
  } catch (err) {
    // A secret created without a value has no AWSCURRENT version yet.
    if (err instanceof ResourceNotFoundException || (err as Error).name === 'ResourceNotFoundException') {
      return undefined;
    }
    throw err;
  }
  const value = parsed(text);
  // Empty, or what the stack put there when it made the secret (CDK fills a new secret with a
  // random password): no identity yet. A new version replaces it; the old one stays AWSPREVIOUS.
  if (!value?.p12) return undefined;
  if (typeof value.passphrase !== 'string') {
    throw new Error(`The seal identity secret ${secretId} has a p12 but no passphrase`);
  }
  return identityOf(Buffer.from(value.p12, 'base64'), value.passphrase);
}

function parsed(text: string | undefined): Partial<TSecretValue> | undefined {
  try {
    const value: unknown = JSON.parse(text ?? '');
    return value && typeof value === 'object' ? (value as Partial<TSecretValue>) : undefined;
  } catch {
    return undefined;
  }
}

/** The certificate and its common name, read out of the PKCS #12. */
function identityOf(p12: Buffer, passphrase: string): TSealIdentity {
  const parsed = forge.pkcs12.pkcs12FromAsn1(
    forge.asn1.fromDer(forge.util.createBuffer(p12.toString('binary'))),
    false,
    passphrase,
  );
  const certBag = forge.pki.oids.certBag!;
  const certs = (parsed.getBags({ bagType: certBag })[certBag] ?? []).flatMap((b) =>
    b.cert ? [b.cert] : [],
  );
  // The signing certificate is the one that is no CA; an operator's P12 may carry its chain too.
  const cert =
    certs.find((c) => !(c.getExtension('basicConstraints') as { cA?: boolean } | undefined)?.cA) ?? certs[0];
  if (!cert) throw new Error('The seal identity secret holds no certificate');
  const cn = cert.subject.getField('CN') as { value?: string } | null;
  return {
    p12,
    passphrase,
    certificatePem: forge.pki.certificateToPem(cert),
    commonName: cn?.value ? forge.util.decodeUtf8(cn.value) : COMMON_NAME,
  };
}
