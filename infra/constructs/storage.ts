// Where the service keeps what it knows: the one DynamoDB table (point-in-time recovery on) and
// the documents bucket (versioned, every access logged to a bucket of its own).
import { Duration, RemovalPolicy, type Stack } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, StreamViewType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { AnyPrincipal, Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import {
  BlockPublicAccess,
  Bucket,
  BucketEncryption,
  HttpMethods,
  ObjectOwnership,
} from 'aws-cdk-lib/aws-s3';
import { INDEXES, TABLE_KEYS } from '#shared/adapters/dynamodb/table';
import { DOCUMENTS_KEY_USE, documentsKeyDenials, documentsName } from '#shared/adapters/kms/documents-keys';
import { EXPORT_KEPT_DAYS, EXPORTS_PREFIX } from '#shared/domain/exports/export';
import { acceptFinding } from '../nag';
import type { TStageConfig } from '../stage-config';

/** How long the documents bucket's server access logs are kept. */
export const DOCUMENT_ACCESS_LOG_DAYS = 365;
/** How long a replaced or deleted version of a stored document stays restorable. */
export const NONCURRENT_VERSION_DAYS = 90;

/** The shape table.ts may grow into; declaring it lets the loop below handle every variant. */
interface TIndexDeclaration {
  name: string;
  partitionKey: string;
  sortKey?: string;
  projection: `${ProjectionType}`;
  nonKeyAttributes?: readonly string[];
}

/**
 * Made in the stack's own scope, as every concern of infra/constructs/ is (no construct level of
 * its own): a resource's logical ID follows its construct path, and a new path would make
 * CloudFormation replace the table and the buckets, which hold every record and document.
 */
export class Storage {
  readonly table: Table;
  readonly bucket: Bucket;
  /** The documents' customer-managed key: each account's objects are sealed under it with the account as context. */
  readonly documentsKey: Key;
  /** The documents key's alias name (esign-<stage>-documents), which accounts' own keys are tagged with. */
  readonly documentsName: string;
  /** TABLE_NAME and BUCKET_NAME, which every function but the MCP server is given. */
  readonly env: { TABLE_NAME: string; BUCKET_NAME: string; DOCUMENTS_KEY_ID: string };

  constructor(stack: Stack, config: TStageConfig) {
    const keep = config.deletionProtection ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;
    this.table = new Table(stack, 'Table', {
      partitionKey: { name: TABLE_KEYS.partitionKey, type: AttributeType.STRING },
      sortKey: { name: TABLE_KEYS.sortKey, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: config.deletionProtection,
      removalPolicy: keep,
      // Short-lived items (the portal's abuse counters) carry `ttl`, epoch seconds.
      timeToLiveAttribute: 'ttl',
      // Each item as written, for the functions the stream feeds (infra/workers.ts,
      // STREAM_CONSUMERS): the outbox relay publishes bundles' outboxes from it.
      stream: StreamViewType.NEW_IMAGE,
    });
    const indexes: readonly TIndexDeclaration[] = Object.values(INDEXES);
    for (const index of indexes) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        ...(index.sortKey ? { sortKey: { name: index.sortKey, type: AttributeType.STRING } } : {}),
        projectionType: ProjectionType[index.projection],
        ...(index.nonKeyAttributes ? { nonKeyAttributes: [...index.nonKeyAttributes] } : {}),
      });
    }

    // Who read or wrote which object, as S3 records it (server access logs), kept a year.
    const accessLogBucket = new Bucket(stack, 'DocumentAccessLogs', {
      encryption: BucketEncryption.S3_MANAGED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_PREFERRED,
      enforceSSL: true,
      lifecycleRules: [{ expiration: Duration.days(DOCUMENT_ACCESS_LOG_DAYS) }],
      removalPolicy: keep,
      autoDeleteObjects: !config.deletionProtection,
    });
    acceptFinding(
      accessLogBucket,
      'S1',
      "This bucket receives the documents bucket's access logs; logging its own accesses into itself would loop.",
    );
    this.documentsName = documentsName(config.stage);
    this.documentsKey = new Key(stack, 'DocumentsKey', {
      alias: `alias/${this.documentsName}`,
      description: 'Documents of every account without a key of its own (context: the account)',
      enableKeyRotation: true,
      removalPolicy: keep,
    });
    // Whatever an identity policy allows, the key serves documents only: through S3 and with an
    // account's id as the context (accounts' own keys carry the same policy, documents-keys.ts).
    for (const [sid, condition] of documentsKeyDenials(stack.region)) {
      this.documentsKey.addToResourcePolicy(
        new PolicyStatement({
          sid,
          effect: Effect.DENY,
          principals: [new AnyPrincipal()],
          actions: DOCUMENTS_KEY_USE,
          resources: ['*'],
          conditions: condition,
        }),
      );
    }
    this.bucket = new Bucket(stack, 'Documents', {
      encryption: BucketEncryption.KMS,
      encryptionKey: this.documentsKey,
      // Off so S3 passes each object's account context to KMS (a Bucket Key would put the
      // bucket's ARN there instead); README "Encryption keys" weighs the cost.
      bucketKeyEnabled: false,
      versioned: true,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      enforceSSL: true,
      serverAccessLogsBucket: accessLogBucket,
      serverAccessLogsPrefix: 'documents/',
      lifecycleRules: [
        { abortIncompleteMultipartUploadAfter: Duration.days(7) },
        // No function deletes or overwrites an object; a version replaced or deleted by hand (an
        // operator's mistake, README "Backups and restore") stays restorable this long.
        { noncurrentVersionExpiration: Duration.days(NONCURRENT_VERSION_DAYS) },
        // Accounts' export archives (shared/domain/exports/): copies of the documents for the
        // account to take away, gone after a week with every version of them.
        {
          id: 'ExportsExpire',
          prefix: EXPORTS_PREFIX,
          expiration: Duration.days(EXPORT_KEPT_DAYS),
          noncurrentVersionExpiration: Duration.days(1),
        },
      ],
      removalPolicy: keep,
      // A dev stack is disposable; elsewhere signed documents outlive the stack.
      autoDeleteObjects: !config.deletionProtection,
    });
    this.env = {
      TABLE_NAME: this.table.tableName,
      BUCKET_NAME: this.bucket.bucketName,
      DOCUMENTS_KEY_ID: this.documentsKey.keyArn,
    };
  }

  /** The signing page's pdf.js fetches documents over 4 MB straight from their presigned links. */
  allowDocumentFetchesFrom(origins: string[]): void {
    this.bucket.addCorsRule({
      allowedMethods: [HttpMethods.GET, HttpMethods.HEAD],
      allowedOrigins: origins,
      allowedHeaders: ['*'],
      maxAge: 3600,
    });
  }
}
