// Which seal the document worker's environment chooses: the KMS key with its chain secret (and the
// older PKCS #12 secret as the fallback until a chain is installed), or that secret alone.
import { describe, expect, it } from 'vitest';
import { configFromEnv } from '#shared/config';

const base = { TABLE_NAME: 'esign-test' };

describe('configFromEnv seal', () => {
  it('seals with the KMS key and its chain secret, falling back to the PKCS #12 secret', () => {
    const config = configFromEnv({
      ...base,
      SEAL_KEY_ID: 'arn:aws:kms:eu-west-1:111122223333:key/k',
      SEAL_NAME: 'esign-test-seal',
      SEAL_CHAIN_SECRET_ID: 'arn:aws:secretsmanager:eu-west-1:111122223333:secret:esign-test-seal-chain',
      SEAL_SECRET_ID: 'legacy',
    });
    expect(config.seal).toEqual({
      kind: 'kms',
      keyId: 'arn:aws:kms:eu-west-1:111122223333:key/k',
      name: 'esign-test-seal',
      chains: {
        kind: 'secrets-manager',
        secretId: 'arn:aws:secretsmanager:eu-west-1:111122223333:secret:esign-test-seal-chain',
      },
      fallbackSecretId: 'legacy',
    });
  });

  it('keeps the PKCS #12 secret alone where no KMS key is given', () => {
    expect(configFromEnv({ ...base, SEAL_SECRET_ID: 'legacy' }).seal).toEqual({
      kind: 'secrets-manager',
      secretId: 'legacy',
    });
    expect(configFromEnv(base).seal).toBeUndefined();
  });

  it('names what is missing beside a KMS key', () => {
    expect(() => configFromEnv({ ...base, SEAL_KEY_ID: 'k', SEAL_NAME: 'n' })).toThrow(
      /SEAL_CHAIN_SECRET_ID/,
    );
  });
});
