// Credentials for timestamp authorities that want them (a paid TSA's basic auth or API key),
// kept in a Secrets Manager secret as headers per TSA URL:
//   {"https://tsa.example.com/tsr": {"authorization": "Basic dXNlcjpwYXNz"}}
// The stack creates the secret without a value: that, "" and "{}" all mean no credentials.
import { GetSecretValueCommand } from '@aws-sdk/client-secrets-manager';
import * as z from 'zod';
import type { TConfig } from '#shared/config';
import { createSecretsManagerClient } from '../aws/secrets-manager-client';

const ZTsaCredentials = z.record(z.string(), z.record(z.string().min(1), z.string()));

export type TTsaCredentials = z.infer<typeof ZTsaCredentials>;

/** Headers per TSA URL from the secret; a secret that is unreadable or malformed fails (never its contents in the message). */
export async function readTsaCredentials(config: TConfig, secretId: string): Promise<TTsaCredentials> {
  const client = createSecretsManagerClient(config);
  let text: string | undefined;
  try {
    text = (await client.send(new GetSecretValueCommand({ SecretId: secretId }))).SecretString;
  } catch (err) {
    if ((err as Error).name === 'ResourceNotFoundException') return {};
    throw new Error('The timestamp authorities’ credentials could not be read.', { cause: err });
  } finally {
    client.destroy();
  }
  if (!text?.trim()) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const checked = ZTsaCredentials.safeParse(parsed);
  if (!checked.success) {
    throw new Error(
      'The timestamp authorities’ credentials secret must be JSON of {"<TSA URL>": {"<header>": "<value>"}}.',
    );
  }
  return checked.data;
}
