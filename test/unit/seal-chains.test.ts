// Where seal chains live on AWS: the service's in the stack's secret (by its ARN), an account's
// in a secret named after it, created by the first install. Secrets Manager as a small fake.
import {
  CreateSecretCommand,
  GetSecretValueCommand,
  PutSecretValueCommand,
  ResourceNotFoundException,
  type SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import { describe, expect, it } from 'vitest';
import { createSecretsManagerSealChains } from '#shared/adapters/sealing/secrets-manager-seal-chains';

const PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
const SERVICE_ARN = 'arn:aws:secretsmanager:eu-west-1:111122223333:secret:esign-prod-seal-chain-AbCdEf';

/** Secrets by id; the service's exists from the start (the stack made it, with CDK's random password). */
function aSecretsManager() {
  const secrets = new Map<string, string | undefined>([[SERVICE_ARN, 'x7#random-password']]);
  const calls: string[] = [];
  const notFound = () =>
    new ResourceNotFoundException({
      message: "Secrets Manager can't find the specified secret.",
      $metadata: {},
    });
  const client = {
    async send(command: unknown) {
      if (command instanceof GetSecretValueCommand) {
        calls.push(`get ${command.input.SecretId}`);
        const value = secrets.get(command.input.SecretId!);
        if (value === undefined) throw notFound();
        return { SecretString: value };
      }
      if (command instanceof PutSecretValueCommand) {
        calls.push(`put ${command.input.SecretId}`);
        if (!secrets.has(command.input.SecretId!)) throw notFound();
        secrets.set(command.input.SecretId!, command.input.SecretString);
        return {};
      }
      if (command instanceof CreateSecretCommand) {
        calls.push(`create ${command.input.Name}`);
        secrets.set(command.input.Name!, command.input.SecretString);
        return {};
      }
      throw new Error('unexpected command');
    },
  };
  return { client: client as unknown as SecretsManagerClient, secrets, calls };
}

describe('createSecretsManagerSealChains', () => {
  it("reads no chain from the stack's fresh secret, then the one installed in it", async () => {
    const sm = aSecretsManager();
    const chains = createSecretsManagerSealChains(sm.client, 'esign-prod-seal', SERVICE_ARN);
    expect(await chains.get()).toBeUndefined();
    await chains.put(PEM);
    expect(await chains.get()).toBe(PEM);
    expect(sm.calls).toEqual([`get ${SERVICE_ARN}`, `put ${SERVICE_ARN}`, `get ${SERVICE_ARN}`]);
  });

  it("creates an account's chain secret on its first install, and writes a new version after", async () => {
    const sm = aSecretsManager();
    const chains = createSecretsManagerSealChains(sm.client, 'esign-prod-seal', SERVICE_ARN);
    expect(await chains.get('acct-1')).toBeUndefined();
    await chains.put(PEM, 'acct-1');
    await chains.put(`${PEM}${PEM}`, 'acct-1');
    expect(await chains.get('acct-1')).toBe(`${PEM}${PEM}`);
    expect(sm.calls).toEqual([
      'get esign-prod-seal-chain-account-acct-1',
      'put esign-prod-seal-chain-account-acct-1',
      'create esign-prod-seal-chain-account-acct-1',
      'put esign-prod-seal-chain-account-acct-1',
      'get esign-prod-seal-chain-account-acct-1',
    ]);
    expect(await chains.get()).toBeUndefined();
  });

  it('refuses account ids that would make other names', async () => {
    const chains = createSecretsManagerSealChains(aSecretsManager().client, 'esign-prod-seal');
    await expect(chains.get('../other')).rejects.toThrow(/not an account id/);
  });
});
