// What IAM authorizes for each AWS SDK command the functions send: the action(s), the resource
// ARN(s) and the request's condition keys, as AWS would evaluate the call against the caller's
// role. One entry per command the code uses; a command not listed here is checked as
// `<service>:<Operation>` on `*`, so a new one still needs its grant.

import type { TAuthzRequest } from './evaluate';

/** Where the ARNs point: the local region and account. */
export interface TArnScope {
  region: string;
  account: string;
}

type TInput = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** A DynamoDB key attribute's value, in either the document client's form or the raw one. */
function keyValue(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (v && typeof v === 'object' && 'S' in v) return String((v as { S: unknown }).S);
  return undefined;
}

/**
 * A transaction has no action of its own: IAM authorizes each of its actions as the single-item
 * call it stands for (a ConditionCheck as dynamodb:ConditionCheckItem), with
 * dynamodb:EnclosingOperation naming the transaction.
 */
const TRANSACT_ACTIONS: Record<string, string> = {
  Put: 'PutItem',
  Update: 'UpdateItem',
  Delete: 'DeleteItem',
  ConditionCheck: 'ConditionCheckItem',
  Get: 'GetItem',
};

function dynamodb(op: string, input: TInput, scope: TArnScope): TAuthzRequest[] {
  const { region, account } = scope;
  const table = (name: string) => `arn:aws:dynamodb:${region}:${account}:table/${name}`;
  if (op === 'BatchWriteItem' || op === 'BatchGetItem') {
    return Object.keys((input.RequestItems ?? {}) as object).map((name) => ({
      action: `dynamodb:${op}`,
      resource: table(name),
    }));
  }
  if (op === 'TransactWriteItems' || op === 'TransactGetItems') {
    return ((input.TransactItems ?? []) as TInput[]).flatMap((entry) =>
      Object.entries(entry)
        .filter(([, member]) => member)
        .flatMap(([kind, member]) =>
          dynamodb(TRANSACT_ACTIONS[kind] ?? kind, member as TInput, scope).map((request) => ({
            ...request,
            context: { ...request.context, 'dynamodb:EnclosingOperation': op },
          })),
        ),
    );
  }
  const name = str(input.TableName);
  const resource = input.IndexName ? `${table(name)}/index/${str(input.IndexName)}` : table(name);
  // The partition key of a single-item request, for dynamodb:LeadingKeys (the table's is `pk`).
  const pk = keyValue((input.Key as TInput | undefined)?.pk ?? (input.Item as TInput | undefined)?.pk);
  return [
    { action: `dynamodb:${op}`, resource, context: pk === undefined ? {} : { 'dynamodb:LeadingKeys': [pk] } },
  ];
}

/** A listing's s3:prefix condition key (absent when the listing names no prefix). */
const prefix = (input: TInput) => (input.Prefix === undefined ? {} : { 's3:prefix': str(input.Prefix) });

function s3(op: string, input: TInput): TAuthzRequest[] {
  const bucket = `arn:aws:s3:::${str(input.Bucket)}`;
  const object = `${bucket}/${str(input.Key)}`;
  const versioned = Boolean(input.VersionId);
  switch (op) {
    case 'GetObject':
    case 'HeadObject':
      return [{ action: versioned ? 's3:GetObjectVersion' : 's3:GetObject', resource: object }];
    case 'PutObject':
    case 'CreateMultipartUpload':
    case 'UploadPart':
    case 'CompleteMultipartUpload':
      return [{ action: 's3:PutObject', resource: object }];
    case 'DeleteObject':
      return [{ action: versioned ? 's3:DeleteObjectVersion' : 's3:DeleteObject', resource: object }];
    case 'DeleteObjects':
      return ((input.Delete as { Objects?: { Key?: string; VersionId?: string }[] })?.Objects ?? []).map(
        (o) => ({
          action: o.VersionId ? 's3:DeleteObjectVersion' : 's3:DeleteObject',
          resource: `${bucket}/${o.Key ?? ''}`,
        }),
      );
    case 'ListObjects':
    case 'ListObjectsV2':
    case 'HeadBucket':
      return [{ action: 's3:ListBucket', resource: bucket, context: prefix(input) }];
    case 'ListObjectVersions':
      return [{ action: 's3:ListBucketVersions', resource: bucket, context: prefix(input) }];
    default:
      return [{ action: `s3:${op}`, resource: input.Key === undefined ? bucket : object }];
  }
}

function sqs(op: string, input: TInput, { region, account }: TArnScope): TAuthzRequest[] {
  const name = str(input.QueueName) || str(input.QueueUrl).split('/').pop() || '*';
  const action = `sqs:${op.replace(/Batch$/, '')}`;
  return [{ action, resource: `arn:aws:sqs:${region}:${account}:${name}` }];
}

function ses(op: string, input: TInput, { region, account }: TArnScope): TAuthzRequest[] {
  const arn = (resource: string) => `arn:aws:ses:${region}:${account}:${resource}`;
  if (op !== 'SendEmail') return [{ action: `ses:${op}`, resource: '*' }];
  const from = str(input.FromEmailAddress).match(/<([^>]+)>/)?.[1] ?? str(input.FromEmailAddress);
  const context = { 'ses:FromAddress': from };
  const requests: TAuthzRequest[] = [
    // SES authorizes the identity the address is verified under: the address or its domain.
    { action: 'ses:SendEmail', resource: arn(`identity/${from}`), context },
  ];
  if (input.ConfigurationSetName) {
    requests.push({
      action: 'ses:SendEmail',
      resource: arn(`configuration-set/${str(input.ConfigurationSetName)}`),
      context,
    });
  }
  return requests;
}

function kms(op: string, input: TInput, { region, account }: TArnScope): TAuthzRequest[] {
  const keyId = str(input.KeyId);
  const context: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries((input.EncryptionContext ?? {}) as Record<string, string>)) {
    context[`kms:EncryptionContext:${k}`] = v;
  }
  // A key named by its alias: the stand-in's keys are known by their aliases, so the ARN and
  // kms:ResourceAliases are the alias's.
  const alias = keyId.startsWith('alias/') ? keyId : keyId.match(/:(alias\/.+)$/)?.[1];
  if (alias) context['kms:ResourceAliases'] = [alias];
  if (op === 'CreateKey') return [{ action: 'kms:CreateKey', resource: '*', context }];
  if (op === 'CreateAlias') {
    const target = str(input.TargetKeyId);
    return [
      { action: 'kms:CreateAlias', resource: `arn:aws:kms:${region}:${account}:${str(input.AliasName)}` },
      { action: 'kms:CreateAlias', resource: keyArn(target, { region, account }) },
    ];
  }
  return [{ action: `kms:${op}`, resource: keyArn(keyId, { region, account }), context }];
}

function keyArn(keyId: string, { region, account }: TArnScope): string {
  if (keyId.startsWith('arn:')) return keyId.replace(/:alias\//, ':key/alias/');
  return `arn:aws:kms:${region}:${account}:key/${keyId}`;
}

function secretsmanager(op: string, input: TInput, { region, account }: TArnScope): TAuthzRequest[] {
  const id = str(input.SecretId) || str(input.Name);
  const resource = id.startsWith('arn:') ? id : `arn:aws:secretsmanager:${region}:${account}:secret:${id}`;
  return [{ action: `secretsmanager:${op}`, resource: op === 'CreateSecret' ? resource : resource }];
}

/** API Gateway's control plane is authorized by HTTP verb on the resource path. */
function apigateway(op: string, input: TInput, { region }: TArnScope): TAuthzRequest[] {
  const path = (p: string) => `arn:aws:apigateway:${region}::${p}`;
  const plan = str(input.usagePlanId);
  const routes: Record<string, [string, string]> = {
    GetUsage: ['GET', `/usageplans/${plan}/usage`],
    GetUsagePlan: ['GET', `/usageplans/${plan}`],
    CreateApiKey: ['POST', '/apikeys'],
    DeleteApiKey: ['DELETE', `/apikeys/${str(input.apiKey)}`],
    CreateUsagePlanKey: ['POST', `/usageplans/${plan}/keys`],
  };
  const [verb, resource] = routes[op] ?? ['GET', '*'];
  return [{ action: `apigateway:${verb}`, resource: resource === '*' ? '*' : path(resource) }];
}

const SERVICES: Record<string, (op: string, input: TInput, scope: TArnScope) => TAuthzRequest[]> = {
  DynamoDBClient: dynamodb,
  S3Client: (op, input) => s3(op, input),
  SQSClient: sqs,
  SESv2Client: ses,
  KMSClient: kms,
  SecretsManagerClient: secretsmanager,
  APIGatewayClient: apigateway,
  SNSClient: (op, input) => [
    // Publish to a phone number has no resource; IAM evaluates it against `*`.
    { action: `sns:${op}`, resource: str(input.TopicArn) || str(input.TargetArn) || '*' },
  ],
};

/**
 * The requests IAM authorizes for one SDK call: `clientName` and `commandName` as the SDK's
 * middleware context names them (`DynamoDBClient`, `PutItemCommand`).
 */
export function authzRequests(
  clientName: string,
  commandName: string,
  input: TInput,
  scope: TArnScope,
): TAuthzRequest[] {
  const op = commandName.replace(/Command$/, '');
  const service = SERVICES[clientName];
  if (!service)
    return [{ action: `${clientName.replace(/Client$/, '').toLowerCase()}:${op}`, resource: '*' }];
  return service(op, input, scope);
}
