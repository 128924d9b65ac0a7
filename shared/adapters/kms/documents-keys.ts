// The KMS side of documents keys, in one place: the names (alias and tag) the stack's grants and
// the operator's commands agree on, the key policy of an account's own key, and the calls that
// make one, schedule its deletion, or (locally) make the stack's documents key.
import {
  AlreadyExistsException,
  CreateAliasCommand,
  CreateKeyCommand,
  DescribeKeyCommand,
  type KMSClient,
  ScheduleKeyDeletionCommand,
} from '@aws-sdk/client-kms';
import type { TDocumentsKeyAdmin } from '#shared/domain/ports/accounts';
import { checkSealAccountId } from '../sealing/seal-names';

/** Actions that seal or open data under a documents key: every one S3 makes for SSE-KMS. */
export const DOCUMENTS_KEY_USE = ['kms:Decrypt', 'kms:Encrypt', 'kms:GenerateDataKey*', 'kms:ReEncrypt*'];

/**
 * The tag every account's own key carries: the stack's grants reach keys by it (their ids are
 * made at run time), and only keys with the value of their own stack.
 */
export const DOCUMENTS_KEY_TAG = 'esign-documents';

/** The name of a stack's documents (e.g. esign-prod-documents): its key's alias and the tag's value. */
export const documentsName = (stage: string) => `esign-${stage}-documents`;

export const accountDocumentsKeyAlias = (name: string, accountId: string) =>
  `alias/${name}-${checkSealAccountId(accountId)}`;

/**
 * An account's own key serves that account's documents through S3 and nothing else: whoever the
 * caller, KMS refuses a use whose encryption context names another account (or none) and a use
 * not made by S3 on the caller's behalf. The AWS account's root keeps the key's administration
 * and lets IAM policies grant its use, as KMS's default policy does.
 */
export function accountKeyPolicy(awsAccount: string, region: string, accountId: string): string {
  const deny = (Sid: string, Condition: Record<string, unknown>) => ({
    Sid,
    Effect: 'Deny',
    Principal: { AWS: '*' },
    Action: DOCUMENTS_KEY_USE,
    Resource: '*',
    Condition,
  });
  return JSON.stringify({
    Version: '2012-10-17',
    Statement: [
      {
        Sid: 'AccountRootAdministersAndDelegatesToIam',
        Effect: 'Allow',
        Principal: { AWS: `arn:aws:iam::${awsAccount}:root` },
        Action: 'kms:*',
        Resource: '*',
      },
      deny('OnlyThisAccountsDocuments', {
        StringNotEquals: { 'kms:EncryptionContext:accountId': accountId },
      }),
      deny('OnlyThroughS3', { StringNotEquals: { 'kms:ViaService': `s3.${region}.amazonaws.com` } }),
    ],
  });
}

const isNotFound = (err: unknown) => (err as Error).name === 'NotFoundException';
const isPendingDeletion = (err: unknown) =>
  (err as Error).name === 'KMSInvalidStateException' && /pending deletion/i.test((err as Error).message);

/** The operator's calls on account keys, for the stack whose documents are `name`. */
export function createDocumentsKeyAdmin(kms: KMSClient, name: string, region: string): TDocumentsKeyAdmin {
  return {
    async create(accountId) {
      // The stack's own key names the AWS account the new key's policy delegates to.
      const stack = await kms.send(new DescribeKeyCommand({ KeyId: `alias/${name}` }));
      const made = await kms.send(
        new CreateKeyCommand({
          KeySpec: 'SYMMETRIC_DEFAULT',
          KeyUsage: 'ENCRYPT_DECRYPT',
          Description: `Documents of account ${accountId} (${name})`,
          Policy: accountKeyPolicy(stack.KeyMetadata!.AWSAccountId!, region, accountId),
          Tags: [
            { TagKey: DOCUMENTS_KEY_TAG, TagValue: name },
            { TagKey: 'account', TagValue: accountId },
          ],
        }),
      );
      const keyArn = made.KeyMetadata!.Arn!;
      // The alias is for people (CloudTrail, the console); a leftover alias of an unused key stays.
      await kms
        .send(
          new CreateAliasCommand({
            AliasName: accountDocumentsKeyAlias(name, accountId),
            TargetKeyId: made.KeyMetadata!.KeyId!,
          }),
        )
        .catch((err: unknown) => {
          if (!(err instanceof AlreadyExistsException)) throw err;
        });
      return { keyArn };
    },
    async scheduleDeletion(keyArn, days) {
      try {
        const out = await kms.send(
          new ScheduleKeyDeletionCommand({ KeyId: keyArn, PendingWindowInDays: days }),
        );
        return { deletionDate: out.DeletionDate!.toISOString() };
      } catch (err) {
        // Asked again (a run that stopped after its record was written): the date set then.
        if (!isPendingDeletion(err)) throw err;
        const out = await kms.send(new DescribeKeyCommand({ KeyId: keyArn }));
        return { deletionDate: out.KeyMetadata!.DeletionDate!.toISOString() };
      }
    },
  };
}

/** The stack's documents key behind its alias, made when there is none (the local runtime's). */
export async function ensureDocumentsKey(kms: KMSClient, name: string): Promise<string> {
  try {
    return (await kms.send(new DescribeKeyCommand({ KeyId: `alias/${name}` }))).KeyMetadata!.Arn!;
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
  const made = await kms.send(
    new CreateKeyCommand({ KeySpec: 'SYMMETRIC_DEFAULT', KeyUsage: 'ENCRYPT_DECRYPT', Description: name }),
  );
  await kms.send(
    new CreateAliasCommand({ AliasName: `alias/${name}`, TargetKeyId: made.KeyMetadata!.KeyId! }),
  );
  return made.KeyMetadata!.Arn!;
}
