import type { TConfig } from '#shared/config';
import type { TSecretCipher } from '#shared/domain/ports/webhooks';
import { createKmsClient } from '../aws/clients';
import { createKmsCipher } from '../kms/kms-cipher';
import { createLocalCipher } from './local-cipher';

/** The secret cipher the config names: KMS on AWS, the local AES key locally; none configured fails on use. */
export function createSecretCipher(config: TConfig): TSecretCipher {
  const secrets = config.secrets;
  if (secrets?.kind === 'kms') return createKmsCipher(createKmsClient(config), secrets.keyId);
  if (secrets?.kind === 'local') return createLocalCipher(Buffer.from(secrets.key, 'base64'));
  const missing = async (): Promise<string> => {
    throw new Error('No secrets key configured (SECRETS_KEY_ID)');
  };
  return { encrypt: missing, decrypt: missing };
}
