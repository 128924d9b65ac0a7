// Lambda defaults and least-privilege grants in one place, so every function of the service is
// built, logged and permitted the same way.
import { ArnFormat, type CfnElement, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { Integration, IntegrationType, type IRestApi, type IUsagePlan } from 'aws-cdk-lib/aws-apigateway';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { Alias, Architecture, Function as LambdaFunction, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Bucket, type IBucket } from 'aws-cdk-lib/aws-s3';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { DOCUMENTS_KEY_TAG } from '#shared/adapters/kms/documents-keys';
import { METRICS_NAMESPACE } from '#shared/adapters/telemetry/metrics';
import { retentionKeyPatterns } from '#shared/domain/bundles/retention';
import { LAMBDA_ENTRY_NAME, LAMBDA_RUNTIME_ENV, type TLambdaName } from '../bundling';
import { acceptFinding } from '../nag';
import type { TStageConfig } from '../stage-config';
import { lambdaCode } from './lambda-code';

export type TAccess = 'read' | 'readWrite';

/**
 * A function's use of the table: `lookup` reads items by their keys alone (the authorizer);
 * `publish` reads, adds and updates items, never deletes any (the outbox relay and sweeper).
 */
export type TTableAccess = TAccess | 'lookup' | 'publish';

const TABLE_READ = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'] as const;
/** What each access allows of the table (grantTable). */
const TABLE_ACTIONS: Record<TTableAccess, readonly string[]> = {
  lookup: ['dynamodb:GetItem'],
  read: TABLE_READ,
  publish: [...TABLE_READ, 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
  readWrite: [
    ...TABLE_READ,
    'dynamodb:PutItem',
    'dynamodb:UpdateItem',
    'dynamodb:DeleteItem',
    'dynamodb:BatchWriteItem',
  ],
};
/**
 * What each access allows of the documents' objects (grantBucket): no versions, tags, object-lock
 * settings or deletes. A multipart upload's own calls are s3:PutObject's; its abort, so a failed
 * one leaves no parts behind, is granted only to a function that writes in parts (`inParts`).
 */
const BUCKET_ACTIONS: Record<TAccess, readonly string[]> = {
  read: ['s3:GetObject'],
  readWrite: ['s3:GetObject', 's3:PutObject'],
};

/** The documents as grants need them: the bucket, its key, and the name account keys are tagged with. */
export interface TDocumentsStorage {
  bucket: IBucket;
  documentsKey: IKey;
  documentsName: string;
}

export interface ApiFunctionProps {
  name: TLambdaName;
  config: TStageConfig;
  /** Added to STAGE, LOG_LEVEL, the Powertools settings and the runtime settings every function gets. */
  environment: Record<string, string>;
  description?: string;
  memorySize?: number;
  timeout?: Duration;
  reservedConcurrency?: number;
}

export function retentionDays(days: number): RetentionDays {
  const found = Object.values(RetentionDays).find((v): v is RetentionDays => v === days);
  if (found === undefined) throw new Error(`${days} is not a CloudWatch Logs retention period`);
  return found;
}

/**
 * The alias every caller invokes (API Gateway, the authorizer, queues, schedules, SNS). A deploy
 * publishes a new version and CodeDeploy moves this alias to it gradually (constructs/deployments.ts),
 * so the callers never point at `$LATEST`.
 */
export const LIVE_ALIAS = 'live';

export class ApiFunction extends Construct {
  readonly fn: LambdaFunction;
  /** What callers invoke: the published version the last finished deployment moved it to. */
  readonly live: Alias;
  readonly logGroup: LogGroup;
  /**
   * The live alias's ARN spelled from the function's fixed name rather than referenced. API Gateway methods
   * point at this, so the API's deployment does not depend on the function resource, and the
   * function may in turn read values that depend on the deployed stage (USAGE_PLAN_ID) without
   * making a circular dependency (function → usage plan → stage → deployment → method → function).
   */
  readonly arnByName: string;

  constructor(scope: Construct, id: string, props: ApiFunctionProps) {
    super(scope, id);
    const stack = Stack.of(this);
    const { config } = props;
    // Fixed so that arnByName can be spelled before the function exists; the stack name already
    // carries the stage, so stages never collide.
    const functionName = `${stack.stackName}-${props.name}`;

    this.logGroup = new LogGroup(this, 'Logs', {
      retention: retentionDays(config.logRetentionDays),
      removalPolicy: config.deletionProtection ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });

    // The function's own role, writing to its own log group only: not the AWS managed basic
    // execution policy, which lets a function create and write any log group of the account.
    const role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `Runs ${functionName}`,
    });
    this.logGroup.grantWrite(role);

    this.fn = new LambdaFunction(this, 'Function', {
      functionName,
      role,
      description: props.description,
      code: lambdaCode(props.name),
      handler: `${LAMBDA_ENTRY_NAME}.handler`,
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      // More memory also buys CPU, which shortens cold starts of the bundled SDK.
      memorySize: props.memorySize ?? 512,
      // API Gateway gives up on an integration after 29 s; running longer only costs money.
      timeout: props.timeout ?? Duration.seconds(28),
      logGroup: this.logGroup,
      // X-Ray: each invocation traced, with its AWS SDK calls (shared/adapters/telemetry/lambda.ts).
      // CDK grants the role xray:PutTraceSegments and PutTelemetryRecords.
      tracing: Tracing.ACTIVE,
      ...(props.reservedConcurrency ? { reservedConcurrentExecutions: props.reservedConcurrency } : {}),
      environment: {
        ...LAMBDA_RUNTIME_ENV,
        STAGE: config.stage,
        LOG_LEVEL: config.logLevel,
        // The logs' `service` and the metrics' `service` dimension; the metrics' namespace.
        POWERTOOLS_SERVICE_NAME: props.name,
        POWERTOOLS_METRICS_NAMESPACE: METRICS_NAMESPACE,
        ...props.environment,
      },
    });

    this.live = new Alias(this, 'Live', { aliasName: LIVE_ALIAS, version: this.fn.currentVersion });

    acceptFinding(
      role,
      'IAM5[Resource::*]',
      "X-Ray's xray:PutTraceSegments and xray:PutTelemetryRecords, which active tracing needs and which take no resource-level permissions; every other grant of the role names its resources (a template test holds to that).",
    );

    acceptFinding(
      this.fn,
      'L1',
      'Node.js 22 is a supported LTS runtime and the one the bundles are built for (esbuild target); a newer runtime is a deliberate upgrade, tested with the pinned AWS SDK first.',
    );

    this.arnByName = stack.formatArn({
      service: 'lambda',
      resource: 'function',
      resourceName: `${functionName}:${LIVE_ALIAS}`,
      arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    });
  }

  /**
   * The item and query actions the service's data access makes (shared/adapters/dynamodb/), not
   * CDK's read and write sets: those add Scan, ConditionCheckItem (transactions), DescribeTable and
   * the stream reads, none of which any function makes (no scan, no transaction's condition
   * check: a transaction's puts need PutItem alone; no stream consumer), so a stolen role could
   * not page through every account's items.
   */
  grantTable(table: ITable, access: TTableAccess): void {
    table.grant(this.fn, ...TABLE_ACTIONS[access]);
    const tableId = Stack.of(this).getLogicalId(table.node.defaultChild as CfnElement);
    acceptFinding(
      this,
      `IAM5[Resource::<${tableId}.Arn>/index/*]`,
      "The indexes of this service's one table (shared/adapters/dynamodb/table.ts), which list queries pick at run time; no other table is reachable.",
    );
  }

  /**
   * Writing means adding objects, never deleting them: documents and evidence are kept as
   * written (the bucket is versioned), so no function gets s3:DeleteObject. The objects are
   * under SSE-KMS (storage.ts): S3 uses the documents key, or an account's own key, on the
   * role's behalf, so the role may use them only through S3 and only with an account's id as
   * the encryption context; an account's own key it reaches by its tag, since those keys are made
   * at run time by the operator (README "Encryption keys").
   */
  grantBucket(documents: TDocumentsStorage, access: TAccess, inParts = false): void {
    const bucket = this.documentsBucket(documents);
    const abort = access === 'readWrite' && inParts ? ['s3:AbortMultipartUpload'] : [];
    this.grantObjects(bucket, '*', [...BUCKET_ACTIONS[access], ...abort]);
    this.grantDocumentsKeys(
      documents,
      access === 'readWrite' ? ['kms:Decrypt', 'kms:GenerateDataKey'] : ['kms:Decrypt'],
    );
    const stack = Stack.of(this);
    const bucketId = stack.getLogicalId(documents.bucket.node.defaultChild as CfnElement);
    const why =
      'Objects of the documents bucket only, keyed by account and bundle ids made at run time; get and put (and abort an upload in parts), and no function may delete.';
    acceptFinding(this, `IAM5[Resource::<${bucketId}.Arn>/*]`, why);
  }

  /**
   * Object actions on the objects under `pattern`, and s3:ListBucket on the bucket limited to
   * that prefix: without it S3 answers a missing key 403 rather than 404, and a file not there
   * (not written yet, erased by policy) must read as missing, not as a denied request.
   */
  private grantObjects(bucket: IBucket, pattern: string, actions: readonly string[]): void {
    this.fn.addToRolePolicy(
      new PolicyStatement({ actions: [...actions], resources: [bucket.arnForObjects(pattern)] }),
    );
    const prefix = pattern === '*' ? undefined : pattern;
    this.fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['s3:ListBucket'],
        resources: [bucket.bucketArn],
        ...(prefix ? { conditions: { StringLike: { 's3:prefix': prefix } } } : {}),
      }),
    );
  }

  /** The documents bucket imported without its key, so CDK's grants add no unconditioned KMS statement. */
  private documentsBucket(documents: TDocumentsStorage): IBucket {
    return Bucket.fromBucketAttributes(this, 'DocumentsBucket', {
      bucketArn: documents.bucket.bucketArn,
      bucketName: documents.bucket.bucketName,
    });
  }

  /**
   * The documents key and accounts' own keys (by their tag), only through S3 and only with an
   * account's id as the encryption context.
   */
  private grantDocumentsKeys(documents: TDocumentsStorage, actions: string[]): void {
    const stack = Stack.of(this);
    const viaS3 = {
      StringEquals: { 'kms:ViaService': `s3.${stack.region}.amazonaws.com` },
      Null: { 'kms:EncryptionContext:accountId': 'false' },
    };
    this.fn.addToRolePolicy(
      new PolicyStatement({ actions, resources: [documents.documentsKey.keyArn], conditions: viaS3 }),
    );
    this.fn.addToRolePolicy(
      new PolicyStatement({
        actions,
        resources: [stack.formatArn({ service: 'kms', resource: 'key', resourceName: '*' })],
        conditions: {
          ...viaS3,
          StringEquals: {
            ...viaS3.StringEquals,
            [`aws:ResourceTag/${DOCUMENTS_KEY_TAG}`]: documents.documentsName,
          },
        },
      }),
    );
    acceptFinding(
      this,
      'IAM5[Resource::arn:<AWS::Partition>:kms:<AWS::Region>:<AWS::AccountId>:key/*]',
      `Accounts' own documents keys, made by the operator at run time: only keys tagged ${DOCUMENTS_KEY_TAG} with this stack's documents name, only through S3 and only with an account's id as the encryption context.`,
    );
  }

  /**
   * Reading accounts' export archives (exports/), and nothing else of the bucket: the account
   * function presigns their download links, which S3 honours with this role's rights. CDK's read
   * grant on that prefix, with Decrypt of the keys the archives are encrypted under (as documents).
   */
  grantExportsRead(documents: TDocumentsStorage): void {
    this.grantObjects(this.documentsBucket(documents), 'exports/*', BUCKET_ACTIONS.read);
    this.grantDocumentsKeys(documents, ['kms:Decrypt']);
    const bucketId = Stack.of(this).getLogicalId(documents.bucket.node.defaultChild as CfnElement);
    const why =
      "Accounts' export archives only (exports/<account>/<export>.tar.gz, ids made at run time), to get, for the presigned download link.";
    acceptFinding(this, `IAM5[Resource::<${bucketId}.Arn>/exports/*]`, why);
  }

  /**
   * Deleting for good, for the retention policies: list the versions under a bundle's prefixes
   * and delete each by its VersionId, on the objects a deletion may touch and nothing else
   * (shared/domain/bundles/retention.ts `retentionKeyPatterns`). No s3:DeleteObject: a plain
   * delete would only hide an object behind a marker in the versioned bucket.
   */
  grantBucketErase(bucket: IBucket): void {
    const patterns = retentionKeyPatterns();
    this.fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['s3:ListBucketVersions'],
        resources: [bucket.bucketArn],
        conditions: { StringLike: { 's3:prefix': patterns } },
      }),
    );
    this.fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['s3:DeleteObjectVersion'],
        resources: patterns.map((k) => bucket.arnForObjects(k)),
      }),
    );
    const bucketId = Stack.of(this).getLogicalId(bucket.node.defaultChild as CfnElement);
    for (const k of patterns) {
      acceptFinding(
        this,
        `IAM5[Resource::<${bucketId}.Arn>/${k}]`,
        "A bundle's own files and a bulk batch's, under keys made of ids known only at run time; the retention policy's deletion of them is the one delete any function may make.",
      );
    }
  }

  /** SendMessage alone: the queue's URL comes in the environment, so no GetQueueUrl or attributes. */
  grantSend(queue: IQueue): void {
    this.fn.addToRolePolicy(
      new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [queue.queueArn] }),
    );
  }

  /**
   * Encrypt and Decrypt with one key, and only with an `accountId` encryption context: nothing
   * else of KMS (no GenerateDataKey, no ReEncrypt). Sealed secrets are bound to their account.
   */
  grantSecretsKey(key: IKey): void {
    this.fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['kms:Encrypt', 'kms:Decrypt'],
        resources: [key.keyArn],
        conditions: { Null: { 'kms:EncryptionContext:accountId': 'false' } },
      }),
    );
  }

  /** GetUsagePlan and GetUsage of one plan, nothing else of API Gateway's control plane. */
  grantUsagePlanRead(plan: IUsagePlan): void {
    const stack = Stack.of(this);
    const planArn = `arn:${stack.partition}:apigateway:${stack.region}::/usageplans/${plan.usagePlanId}`;
    this.fn.addToRolePolicy(
      new PolicyStatement({ actions: ['apigateway:GET'], resources: [planArn, `${planArn}/usage`] }),
    );
  }

  /**
   * Creating API keys in the usage plan (the console's per-account usage keys, the API keys users
   * make), and deleting one (a revoked key, a usage key that lost the race to be an account's first).
   */
  grantUsageKeyCreate(plan: IUsagePlan): void {
    const stack = Stack.of(this);
    const apis = `arn:${stack.partition}:apigateway:${stack.region}::`;
    this.fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['apigateway:POST'],
        resources: [`${apis}/apikeys`, `${apis}/usageplans/${plan.usagePlanId}/keys`],
      }),
    );
    this.fn.addToRolePolicy(
      new PolicyStatement({ actions: ['apigateway:DELETE'], resources: [`${apis}/apikeys/*`] }),
    );
    acceptFinding(
      this,
      'IAM5[Resource::arn:<AWS::Partition>:apigateway:<AWS::Region>::/apikeys/*]',
      "A usage key's id is made by API Gateway when the key is created, so a revoked API key, or one that lost the race to be an account's console usage key, can only be named at run time; DELETE on API keys only, nothing else of API Gateway.",
    );
  }

  /**
   * A Lambda proxy integration addressed by name (see arnByName). Allow the API to invoke it with
   * `allowInvokeFrom`, once per function.
   */
  integration(): Integration {
    const stack = Stack.of(this);
    return new Integration({
      type: IntegrationType.AWS_PROXY,
      integrationHttpMethod: 'POST',
      uri: `arn:${stack.partition}:apigateway:${stack.region}:lambda:path/2015-03-31/functions/${this.arnByName}/invocations`,
    });
  }

  /** Lets API Gateway invoke the live alias for the given resource paths only (all methods). */
  allowInvokeFrom(api: IRestApi, stage: string, resourcePaths: readonly string[]): void {
    for (const resourcePath of resourcePaths) {
      // Named by the path: one function may serve several resources (signing serves /sign and /verify).
      const name = resourcePath.replace(/\*/g, 'Any').replace(/[^A-Za-z0-9]/g, '');
      this.live.addPermission(`ApiInvoke${name}`, {
        principal: new ServicePrincipal('apigateway.amazonaws.com'),
        sourceArn: api.arnForExecuteApi('*', resourcePath, stage),
      });
    }
  }
}
