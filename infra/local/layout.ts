// Names the local runtime and the operator command both rely on, in one small module: the
// admin command must not import runtime.ts, which loads every function and stand-in.
import { join } from 'node:path';
import type { TConfig } from '#shared/config';

export const LOCAL_STAGE = 'local';
export const LOCAL_REGION = 'us-east-1';
export const LOCAL_TABLE_NAME = `esign-${LOCAL_STAGE}`;
export const LOCAL_BUCKET_NAME = `esign-${LOCAL_STAGE}-documents`;
/** The local seal's name: its key is alias/esign-local-seal in the KMS stand-in (seal-names.ts). */
export const LOCAL_SEAL_NAME = `esign-${LOCAL_STAGE}-seal`;
/** s3rver checks signatures against these; the other stand-ins accept any. */
export const LOCAL_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/** Where each stand-in keeps its data inside the data folder. */
export const dataPaths = (dataDir: string) => ({
  dynamodb: join(dataDir, 'dynamodb'),
  s3: join(dataDir, 's3'),
  sqs: join(dataDir, 'sqs.json'),
  mailbox: join(dataDir, 'mailbox'),
  demoAccount: join(dataDir, 'demo-account.json'),
  /** The AES-256 key that seals webhook secrets locally (KMS's stand-in); mode 0600. */
  secretsKey: join(dataDir, 'secrets.key'),
  /** The KMS stand-in's keys (the seal key among them), mode 0600; they never leave it. */
  kms: join(dataDir, 'kms', 'keys.json'),
  /** The seal certificate chains (PEM, public): the service's, made on first start, and accounts'. */
  sealChains: join(dataDir, 'seal-chains'),
  /** The local certificate authority (root and timestamp authority certificates); made on first use. */
  ca: join(dataDir, 'ca'),
  /** Written while `npm start` runs: how other processes reach its dynalite. */
  runtime: join(dataDir, 'runtime.json'),
});

/** The content of `runtime.json`. */
export interface TRuntimeFile {
  pid: number;
  dynamodbEndpoint: string;
  /** The KMS stand-in, where the seal keys are (the operator's seal-* commands use it). */
  kmsEndpoint: string;
  /** The S3 stand-in, where the documents are (run-retention deletes there; export-account and import-account read and write there). */
  s3Endpoint?: string;
  tableName: string;
  apiUrl: string;
}

/**
 * The configuration of a client of the local stand-ins from outside the runtime (operator
 * commands, the bench): the table on the DynamoDB stand-in at `endpoint`, nothing else.
 */
export function localTableConfig(endpoint: string, tableName: string): TConfig {
  return {
    stage: 'local',
    region: LOCAL_REGION,
    tableName,
    bucketName: '',
    usagePlanId: '',
    logLevel: 'silent',
    endpoints: { dynamodb: endpoint },
    credentials: LOCAL_CREDENTIALS,
  };
}
