// The KMS side of documents keys, in one place: the names (alias and tag) the stack's grants and
// the operator's commands agree on, the key policy of an account's own key, and the calls that
// make one, schedule its deletion, or (locally) make the stack's documents key.
import {
  AlreadyExistsException,
  CreateAliasCommand,
  CreateKeyCommand,
  DescribeKeyCommand,
  type KeyMetadata,
  type KMSClient,
  PutKeyPolicyCommand,
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
  return keyPolicy(awsAccount, [
    ['OnlyThisAccountsDocuments', { StringNotEquals: { 'kms:EncryptionContext:accountId': accountId } }],
    onlyThroughS3(region),
  ]);
}

type TDenial = readonly [sid: string, condition: Record<string, Record<string, string>>];

const onlyThroughS3 = (region: string): TDenial => [
  'OnlyThroughS3',
  { StringNotEquals: { 'kms:ViaService': `s3.${region}.amazonaws.com` } },
];

/**
 * What the stack's documents key refuses whoever asks (infra/constructs/storage.ts): a use not
 * made by S3, and one without an account in the context, such as S3's default encryption of the
 * bucket, whose context is the object's ARN (`aws:s3:arn`). Every object is written under an
 * account's context, so none falls back to the default.
 */
export const documentsKeyDenials = (region: string): TDenial[] => [
  onlyThroughS3(region),
  ['OnlyWithAnAccountContext', { Null: { 'kms:EncryptionContext:accountId': 'true' } }],
];

/** The stack's documents key's policy as JSON, for the local runtime's key (ensureDocumentsKey). */
export const documentsKeyPolicy = (awsAccount: string, region: string) =>
  keyPolicy(awsAccount, documentsKeyDenials(region));

function keyPolicy(awsAccount: string, denials: TDenial[]): string {
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
      ...denials.map(([Sid, Condition]) => ({
        Sid,
        Effect: 'Deny',
        Principal: { AWS: '*' },
        Action: DOCUMENTS_KEY_USE,
        Resource: '*',
        Condition,
      })),
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

/**
 * The stack's documents key behind its alias, made when there is none (the local runtime's),
 * with the stack's key policy, given again each time so a key made before it has it too.
 */
export async function ensureDocumentsKey(kms: KMSClient, name: string, region: string): Promise<string> {
  let key: KeyMetadata | undefined;
  try {
    key = (await kms.send(new DescribeKeyCommand({ KeyId: `alias/${name}` }))).KeyMetadata;
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
  if (!key) {
    key = (
      await kms.send(
        new CreateKeyCommand({
          KeySpec: 'SYMMETRIC_DEFAULT',
          KeyUsage: 'ENCRYPT_DECRYPT',
          Description: name,
        }),
      )
    ).KeyMetadata!;
    await kms.send(new CreateAliasCommand({ AliasName: `alias/${name}`, TargetKeyId: key.KeyId! }));
  }
  await kms.send(
    new PutKeyPolicyCommand({
      KeyId: key.KeyId!,
      PolicyName: 'default',
      Policy: documentsKeyPolicy(key.AWSAccountId!, region),
    }),
  );
  return key.Arn!;
}
