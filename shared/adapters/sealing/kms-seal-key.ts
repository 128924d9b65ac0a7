// Finding or making the KMS key of a seal by its alias (seal-names.ts): the operator's seal-csr
// makes an account's key on first use, the local runtime the service's. On AWS the service's key
// is the stack's; it has the alias already, so nothing is made there.
import {
  AlreadyExistsException,
  CreateAliasCommand,
  CreateKeyCommand,
  DescribeKeyCommand,
  type KMSClient,
} from '@aws-sdk/client-kms';

export const SEAL_KEY_SPECS = ['RSA_3072', 'ECC_NIST_P256'] as const;
export type TSealKeySpec = (typeof SEAL_KEY_SPECS)[number];

const isNotFound = (err: unknown) => (err as Error).name === 'NotFoundException';

/** The ARN of the key behind `alias`, made (spec `keySpec`, signing only) when there is none. */
export async function ensureSealKey(
  kms: KMSClient,
  alias: string,
  keySpec: TSealKeySpec,
  description: string,
  tags: Record<string, string> = {},
): Promise<{ keyArn: string; created: boolean }> {
  try {
    const out = await kms.send(new DescribeKeyCommand({ KeyId: alias }));
    return { keyArn: out.KeyMetadata!.Arn!, created: false };
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
  const made = await kms.send(
    new CreateKeyCommand({
      KeySpec: keySpec,
      KeyUsage: 'SIGN_VERIFY',
      Description: description,
      Tags: Object.entries(tags).map(([TagKey, TagValue]) => ({ TagKey, TagValue })),
    }),
  );
  try {
    await kms.send(new CreateAliasCommand({ AliasName: alias, TargetKeyId: made.KeyMetadata!.KeyId! }));
  } catch (err) {
    // Another process named its own key first: use that one (ours stays unused).
    if (!(err instanceof AlreadyExistsException) && (err as Error).name !== 'AlreadyExistsException')
      throw err;
    const out = await kms.send(new DescribeKeyCommand({ KeyId: alias }));
    return { keyArn: out.KeyMetadata!.Arn!, created: false };
  }
  return { keyArn: made.KeyMetadata!.Arn!, created: true };
}
