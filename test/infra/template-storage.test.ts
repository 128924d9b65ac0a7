// Where records and documents are kept (infra/constructs/storage.ts): the table and the documents
// bucket.
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENT_ACCESS_LOG_DAYS, NONCURRENT_VERSION_DAYS } from '#infra/constructs/storage';
import { INDEXES, TABLE_KEYS } from '#shared/adapters/dynamodb/table';
import { DOCUMENTS_KEY_TAG, DOCUMENTS_KEY_USE } from '#shared/adapters/kms/documents-keys';
import { EXPORT_KEPT_DAYS } from '#shared/domain/exports/export';
import { resources, SYNTH_TIMEOUT_MS, synthStages } from './stack-template';

let dev: Template;
let prod: Template;

beforeAll(() => {
  ({ dev, prod } = synthStages());
}, SYNTH_TIMEOUT_MS);

describe('DynamoDB table', () => {
  it('has the keys and indexes table.ts declares, on demand, with point-in-time recovery', () => {
    const indexes = Object.values(INDEXES);
    const attributes = new Set<string>([TABLE_KEYS.partitionKey, TABLE_KEYS.sortKey]);
    for (const ix of indexes) {
      attributes.add(ix.partitionKey);
      attributes.add(ix.sortKey);
    }
    dev.hasResourceProperties('AWS::DynamoDB::Table', {
      BillingMode: 'PAY_PER_REQUEST',
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      KeySchema: [
        { AttributeName: TABLE_KEYS.partitionKey, KeyType: 'HASH' },
        { AttributeName: TABLE_KEYS.sortKey, KeyType: 'RANGE' },
      ],
      AttributeDefinitions: Match.arrayEquals(
        [...attributes].map((name) => ({ AttributeName: name, AttributeType: 'S' })),
      ),
      GlobalSecondaryIndexes: Match.arrayEquals(
        indexes.map((ix) => ({
          IndexName: ix.name,
          KeySchema: [
            { AttributeName: ix.partitionKey, KeyType: 'HASH' },
            { AttributeName: ix.sortKey, KeyType: 'RANGE' },
          ],
          Projection: {
            ProjectionType: ix.projection,
            ...('nonKeyAttributes' in ix ? { NonKeyAttributes: [...ix.nonKeyAttributes] } : {}),
          },
        })),
      ),
    });
  });

  it('is protected from deletion in prod and disposable in dev', () => {
    prod.hasResource('AWS::DynamoDB::Table', {
      Properties: Match.objectLike({ DeletionProtectionEnabled: true }),
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
    });
    dev.hasResource('AWS::DynamoDB::Table', {
      Properties: Match.objectLike({ DeletionProtectionEnabled: false }),
      DeletionPolicy: 'Delete',
    });
  });
});

describe('documents bucket', () => {
  it('is encrypted, versioned and closed to the public', () => {
    for (const template of [dev, prod]) {
      template.hasResourceProperties('AWS::S3::Bucket', {
        BucketEncryption: {
          ServerSideEncryptionConfiguration: [
            {
              ServerSideEncryptionByDefault: { SSEAlgorithm: 'aws:kms', KMSMasterKeyID: Match.anyValue() },
              // Off: a Bucket Key would replace each object's account context with the bucket's ARN.
              BucketKeyEnabled: false,
            },
          ],
        },
        VersioningConfiguration: { Status: 'Enabled' },
        PublicAccessBlockConfiguration: {
          BlockPublicAcls: true,
          BlockPublicPolicy: true,
          IgnorePublicAcls: true,
          RestrictPublicBuckets: true,
        },
      });
    }
  });

  it('refuses requests without TLS', () => {
    dev.hasResourceProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Effect: 'Deny',
            Action: 's3:*',
            Principal: { AWS: '*' },
            Condition: { Bool: { 'aws:SecureTransport': 'false' } },
          }),
        ]),
      },
    });
  });

  it('keeps replaced and deleted versions restorable, and logs every access to a bucket of its own', () => {
    for (const template of [dev, prod]) {
      const buckets = template.findResources('AWS::S3::Bucket', {
        Properties: { VersioningConfiguration: { Status: 'Enabled' } },
      });
      expect(Object.keys(buckets)).toHaveLength(1);
      const documents = Object.values(buckets)[0]!.Properties as {
        LifecycleConfiguration: { Rules: Record<string, unknown>[] };
        LoggingConfiguration: { DestinationBucketName: { Ref: string }; LogFilePrefix: string };
      };
      expect(documents.LifecycleConfiguration.Rules).toContainEqual(
        expect.objectContaining({
          NoncurrentVersionExpiration: { NoncurrentDays: NONCURRENT_VERSION_DAYS },
          Status: 'Enabled',
        }),
      );
      // No rule expires current versions but the exports' (copies made for an account to take
      // away): a signed document stays until someone deletes it.
      const [exports, ...others] = [
        ...documents.LifecycleConfiguration.Rules.filter((r) => r.Prefix === 'exports/'),
        ...documents.LifecycleConfiguration.Rules.filter((r) => r.Prefix !== 'exports/'),
      ];
      expect(exports).toMatchObject({ ExpirationInDays: EXPORT_KEPT_DAYS, Status: 'Enabled' });
      for (const rule of others) expect(rule).not.toHaveProperty('ExpirationInDays');
      const logs = resources(template)[documents.LoggingConfiguration.DestinationBucketName.Ref]!;
      expect(logs.Type).toBe('AWS::S3::Bucket');
      expect(logs.Properties).toMatchObject({
        LifecycleConfiguration: {
          Rules: [{ ExpirationInDays: DOCUMENT_ACCESS_LOG_DAYS, Status: 'Enabled' }],
        },
        PublicAccessBlockConfiguration: { BlockPublicAcls: true, RestrictPublicBuckets: true },
      });
    }
  });

  it('outlives a prod stack', () => {
    prod.hasResource('AWS::S3::Bucket', { DeletionPolicy: 'Retain' });
    prod.resourceCountIs('Custom::S3AutoDeleteObjects', 0);
  });
});

describe('documents key', () => {
  type TSt = {
    Effect?: string;
    Action: string | string[];
    Resource: unknown;
    Condition?: Record<string, Record<string, unknown>>;
  };
  const policies = () =>
    Object.values(dev.findResources('AWS::IAM::Policy')).map(
      (policy) => policy.Properties as { PolicyDocument: { Statement: TSt[] }; Roles: { Ref: string }[] },
    );
  /** A grant only through S3 and only with an account's id as the context. */
  const viaS3WithAccount = (st: TSt) =>
    JSON.stringify(st.Condition?.StringEquals?.['kms:ViaService'] ?? null).includes('s3.') &&
    st.Condition?.Null?.['kms:EncryptionContext:accountId'] === 'false';

  it('is a rotated customer-managed key, and only roles of functions that touch documents may use it, through S3 with an account context', () => {
    dev.hasResourceProperties('AWS::KMS::Key', { EnableKeyRotation: true });
    dev.hasResourceProperties('AWS::KMS::Alias', { AliasName: 'alias/esign-dev-documents' });
    expect(dev.findOutputs('DocumentsName').DocumentsName?.Value).toBe('esign-dev-documents');
    const all = resources(dev);
    const keyId = Object.keys(dev.findResources('AWS::KMS::Key')).find((id) =>
      JSON.stringify(all[id]!.Properties).includes('Documents of every account'),
    )!;
    // Accounts' own keys: any key of the AWS account, but only with this stack's tag.
    const isAccountKeys = (st: TSt) =>
      st.Condition?.StringEquals?.[`aws:ResourceTag/${DOCUMENTS_KEY_TAG}`] === 'esign-dev-documents';
    const usesKey = (actions: string[], which: (st: TSt) => boolean) =>
      policies().flatMap((props) => {
        const hits = props.PolicyDocument.Statement.filter(
          (st) => which(st) && [st.Action].flat().some((a) => actions.includes(a)),
        );
        for (const st of hits) expect(viaS3WithAccount(st), JSON.stringify(st)).toBe(true);
        return hits.length > 0 ? props.Roles.map((r) => r.Ref) : [];
      });
    const stackKey = (st: TSt) => JSON.stringify(st.Resource ?? null).includes(keyId);
    const decrypt = new Set(usesKey(['kms:Decrypt'], stackKey));
    const encrypt = new Set(usesKey(['kms:GenerateDataKey'], stackKey));
    // Every role that may write documents may read them; not every reader may write.
    for (const role of encrypt) expect(decrypt.has(role)).toBe(true);
    expect(encrypt.size).toBeGreaterThan(0);
    expect(decrypt.size).toBeGreaterThan(encrypt.size);
    // Accounts' own keys: the very same roles, for the very same actions.
    expect([...new Set(usesKey(['kms:Decrypt'], isAccountKeys))].sort()).toEqual([...decrypt].sort());
    expect([...new Set(usesKey(['kms:GenerateDataKey'], isAccountKeys))].sort()).toEqual([...encrypt].sort());
    // No wider KMS action on the documents keys (no Encrypt, ReEncrypt, wildcards).
    for (const props of policies())
      for (const st of props.PolicyDocument.Statement.filter((x) => stackKey(x) || isAccountKeys(x)))
        for (const a of [st.Action].flat()) expect(['kms:Decrypt', 'kms:GenerateDataKey']).toContain(a);
    // The same roles the bucket grants reach, and no other: a role without s3:GetObject on the
    // documents bucket has no business with its key.
    const bucketRoles = new Set(
      policies().flatMap((props) => {
        const reads = props.PolicyDocument.Statement.some(
          (st) =>
            [st.Action].flat().includes('s3:GetObject') &&
            JSON.stringify(st.Resource ?? null).includes('Documents'),
        );
        return reads ? props.Roles.map((r) => r.Ref) : [];
      }),
    );
    expect([...decrypt].sort()).toEqual([...bucketRoles].sort());
  });

  it("refuses, whoever asks, a use not made through S3 or without an account's context", () => {
    const key = Object.values(dev.findResources('AWS::KMS::Key')).find((k) =>
      JSON.stringify(k.Properties).includes('Documents of every account'),
    )!;
    const denies = (key.Properties as { KeyPolicy: { Statement: TSt[] } }).KeyPolicy.Statement.filter(
      (st) => st.Effect === 'Deny',
    );
    expect(denies.map((st) => st.Condition)).toEqual([
      { StringNotEquals: { 'kms:ViaService': expect.anything() } },
      { Null: { 'kms:EncryptionContext:accountId': 'true' } },
    ]);
    for (const st of denies) expect([st.Action].flat().sort()).toEqual([...DOCUMENTS_KEY_USE].sort());
  });
});
