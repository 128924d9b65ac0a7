// Where records and documents are kept (infra/constructs/storage.ts): the table and the documents
// bucket.
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENT_ACCESS_LOG_DAYS, NONCURRENT_VERSION_DAYS } from '#infra/constructs/storage';
import { INDEXES, TABLE_KEYS } from '#shared/adapters/dynamodb/table';
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
          ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
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
      // No rule expires current versions: a signed document stays until someone deletes it.
      for (const rule of documents.LifecycleConfiguration.Rules)
        expect(rule).not.toHaveProperty('ExpirationInDays');
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
