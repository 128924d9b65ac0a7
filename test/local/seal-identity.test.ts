// The PKCS #12 seal identity of deployments from before KMS sealing: a Secrets Manager secret
// (made once by whichever cold start comes first), still sealing until a KMS chain is installed.
import {
  GetSecretValueCommand,
  PutSecretValueCommand,
  ResourceNotFoundException,
  type SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import { describe, expect, it } from 'vitest';
import { createSecretsManagerSealIdentity } from '#shared/adapters/sealing/secrets-manager-seal-identity';
import { newSealIdentity, sealPdf } from '#shared/pdf/seal';
import { aPdf } from '../helpers/pdfs';
import { pdfsig } from '../helpers/poppler';

const info = { reason: 'Test', name: 'Open eSignature service' };

/**
 * Secrets Manager as far as the store uses it: a secret created without a value, versions
 * written with a ClientRequestToken (the same token with other contents is refused).
 */
function aSecretsManager(initial?: string) {
  const versions = new Map<string, string>();
  let current = initial;
  const calls: string[] = [];
  const client = {
    async send(command: unknown) {
      // Let racing callers interleave as they would over the network.
      await new Promise((r) => setTimeout(r, 5));
      if (command instanceof GetSecretValueCommand) {
        calls.push('get');
        if (current === undefined) {
          throw new ResourceNotFoundException({
            message: "Secrets Manager can't find the specified secret value for staging label: AWSCURRENT",
            $metadata: {},
          });
        }
        return { SecretString: current };
      }
      if (command instanceof PutSecretValueCommand) {
        calls.push('put');
        const { ClientRequestToken: token, SecretString: value } = command.input;
        const known = versions.get(token!);
        if (known !== undefined && known !== value) {
          throw Object.assign(new Error('A version with this token exists'), {
            name: 'ResourceExistsException',
          });
        }
        versions.set(token!, value!);
        current = value;
        return { VersionId: token };
      }
      throw new Error('unexpected command');
    },
  };
  return {
    client: client as unknown as SecretsManagerClient,
    calls,
    value: () => current,
  };
}

describe('createSecretsManagerSealIdentity', () => {
  it('makes and stores an identity when the secret has no value yet, then reads it back', async () => {
    const sm = aSecretsManager();
    const identity = await createSecretsManagerSealIdentity(sm.client, 'seal').get();
    const stored = JSON.parse(sm.value()!) as { p12: string; passphrase: string };
    expect(Buffer.from(stored.p12, 'base64').equals(identity.p12)).toBe(true);
    expect(stored.passphrase).toBe(identity.passphrase);
    expect(sm.calls).toEqual(['get', 'put', 'get']);
    expect(identity.commonName).toBe('Open eSignature service seal');
    expect(pdfsig(await sealPdf(await aPdf(), identity, info))).toContain('Signature is Valid.');
  });

  it('lets racing cold starts agree on one identity', async () => {
    const sm = aSecretsManager();
    const identities = await Promise.all(
      [1, 2, 3].map(() => createSecretsManagerSealIdentity(sm.client, 'seal').get()),
    );
    for (const i of identities) expect(i.certificatePem).toBe(identities[0]!.certificatePem);
  });

  it('replaces the random placeholder CDK puts in a new secret', async () => {
    const sm = aSecretsManager('x8#Jq!2nV0pLr7$Tz');
    const identity = await createSecretsManagerSealIdentity(sm.client, 'seal').get();
    expect(JSON.parse(sm.value()!).passphrase).toBe(identity.passphrase);
  });

  it('uses an identity already stored, its common name read from the certificate, once per process', async () => {
    const made = newSealIdentity('Acme Corp document seal');
    const sm = aSecretsManager(
      JSON.stringify({ p12: made.p12.toString('base64'), passphrase: made.passphrase }),
    );
    const store = createSecretsManagerSealIdentity(sm.client, 'seal');
    const identity = await store.get();
    await store.get();
    expect(identity.commonName).toBe('Acme Corp document seal');
    expect(identity.certificatePem.replace(/\r/g, '')).toBe(made.certificatePem.replace(/\r/g, ''));
    expect(sm.calls).toEqual(['get']);
  });
});
