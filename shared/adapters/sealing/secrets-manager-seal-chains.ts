// The seal certificate chains on AWS: each in a Secrets Manager secret holding the PEM text. The
// service's is created (empty) by the stack; an account's by the operator's seal-install-cert.
//
// Why Secrets Manager and not an SSM parameter, though a chain is public: a standard parameter
// holds 4 KB and a chain from a commercial CA (seal certificate, one or two intermediates, root)
// is often more in PEM; Secrets Manager holds 64 KB, keeps earlier versions (AWSPREVIOUS) when a
// certificate is renewed, and its client is already in the worker.
import {
  CreateSecretCommand,
  GetSecretValueCommand,
  PutSecretValueCommand,
  type SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import type { TSealChainStore } from '#shared/domain/ports/evidence';
import { sealChainName } from './seal-names';

const isNotFound = (err: unknown) => (err as Error).name === 'ResourceNotFoundException';

/** `serviceSecretId`: the stack's secret (its ARN); without it, the service's chain goes by its name. */
export function createSecretsManagerSealChains(
  client: SecretsManagerClient,
  name: string,
  serviceSecretId?: string,
): TSealChainStore {
  const idOf = (accountId?: string) =>
    accountId ? sealChainName(name, accountId) : (serviceSecretId ?? sealChainName(name));
  return {
    async get(accountId) {
      try {
        const out = await client.send(new GetSecretValueCommand({ SecretId: idOf(accountId) }));
        // Created without a value, or with something else than a chain: none installed yet.
        return out.SecretString?.includes('-----BEGIN CERTIFICATE-----') ? out.SecretString : undefined;
      } catch (err) {
        if (isNotFound(err)) return undefined;
        throw err;
      }
    },
    async put(pem, accountId) {
      try {
        await client.send(new PutSecretValueCommand({ SecretId: idOf(accountId), SecretString: pem }));
      } catch (err) {
        if (!accountId || !isNotFound(err)) throw err;
        await client.send(
          new CreateSecretCommand({
            Name: idOf(accountId),
            SecretString: pem,
            Description: `Seal certificate chain of account ${accountId} (public; the key is in KMS)`,
          }),
        );
      }
    },
  };
}
