import type { TConfig } from '../../config';
import type { TSecretSealer } from '../../ports';
import { createKmsClient } from '../aws/clients';
import { createKmsSealer } from '../kms/kms-sealer';
import { createLocalSealer } from './local-sealer';

/** The sealer config names: KMS on AWS, the local AES key locally; none configured fails on use. */
export function createSecretSealer(config: TConfig): TSecretSealer {
  const secrets = config.secrets;
  if (secrets?.kind === 'kms') return createKmsSealer(createKmsClient(config), secrets.keyId);
  if (secrets?.kind === 'local') return createLocalSealer(Buffer.from(secrets.key, 'base64'));
  const missing = async (): Promise<string> => {
    throw new Error('No secrets key configured (SECRETS_KEY_ID)');
  };
  return { seal: missing, open: missing };
}
