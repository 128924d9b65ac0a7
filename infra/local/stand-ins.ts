// The AWS services the functions talk to, stood in for locally, each on a free loopback port:
// DynamoDB (dynalite), S3 (s3rver), SQS, SES and SNS (the mailbox), API Gateway's control plane,
// KMS, the local CA's publication point and timestamp authority, and an OpenID Connect provider.

import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { KMSClient } from '@aws-sdk/client-kms';
import type { SQSClient } from '@aws-sdk/client-sqs';
import { documentsName, ensureDocumentsKey } from '#shared/adapters/kms/documents-keys';
import { createLocalSealChains } from '#shared/adapters/sealing/local-seal-chains';
import type { TLogger } from '#shared/logger';
import { startApiGatewayControl } from './apigateway-control';
import { startDynalite } from './dynamo';
import { ensureQueues } from './ensure-queues';
import { startKmsStandin } from './kms-standin';
import {
  dataPaths,
  LOCAL_BUCKET_NAME,
  LOCAL_CREDENTIALS,
  LOCAL_REGION,
  LOCAL_SEAL_NAME,
  LOCAL_STAGE,
  LOCAL_TABLE_NAME,
} from './layout';
import { loadLocalCa } from './local-ca';
import { ensureLocalSeal } from './local-seal';
import { startMailboxServer } from './mailbox';
import { ensureLocalTable } from './migrate-table';
import { startOidcStandin } from './oidc-standin';
import { startPkiStandin } from './pki-standin';
import { startS3rver } from './s3';
import { startLocalSqs } from './sqs';
import { startTsaStandin } from './tsa-standin';
import type { LocalUsagePlan } from './usage-plan';

/**
 * Where every stand-in listens, whatever `host` says: they check no credentials (dynalite, the
 * SQS, SES/SNS and API Gateway stand-ins) or only the well-known local ones (s3rver), so on a
 * network anyone could mint keys or read documents. Only the service's own port follows `host`.
 */
const STAND_IN_HOST = '127.0.0.1';

/** What is stopped when the runtime stops, last started first. */
export type TStops = (() => Promise<void>)[];

export interface TStandInOptions {
  dataDir: string;
  /** Nothing on disk: every stand-in keeps its state in memory. */
  memory: boolean;
  plan: LocalUsagePlan;
}

export type TStandIns = Awaited<ReturnType<typeof startStandIns>>;

/** Starts every stand-in; each one's stop goes onto `stops` as soon as it runs. */
export async function startStandIns({ dataDir, memory, plan }: TStandInOptions, stops: TStops) {
  const paths = dataPaths(dataDir);
  const dynamo = await startDynalite({
    port: 0,
    host: STAND_IN_HOST,
    dir: memory ? undefined : paths.dynamodb,
  });
  stops.push(dynamo.stop);
  const s3 = await startS3rver({ port: 0, host: STAND_IN_HOST, dir: paths.s3, bucket: LOCAL_BUCKET_NAME });
  stops.push(s3.stop);
  const sqs = await startLocalSqs({
    port: 0,
    host: STAND_IN_HOST,
    ...(memory ? {} : { dataFile: paths.sqs }),
  });
  stops.push(sqs.stop);
  // SES's simulated bounce and complaint reports go to the notifications worker (see onMailEvent),
  // as SES → SNS → Lambda on AWS.
  let mailEvents: ((notification: string) => Promise<void>) | undefined;
  const mailbox = await startMailboxServer({
    port: 0,
    host: STAND_IN_HOST,
    dir: paths.mailbox,
    onSesEvent: (notification) =>
      mailEvents ? mailEvents(notification) : Promise.reject(new Error('not started yet')),
  });
  stops.push(mailbox.stop);
  const control = await startApiGatewayControl({ host: STAND_IN_HOST, plan });
  stops.push(control.stop);
  // The local CA publishes its root, CRL and OCSP answers (pki-standin.ts), and the timestamp
  // authority every seal is stamped by has a certificate under it.
  const caDir = memory ? undefined : paths.ca;
  const pki = await startPkiStandin({ ...(caDir ? { dir: caDir } : {}) });
  stops.push(pki.stop);
  const ca = await loadLocalCa(caDir, { pkiUrl: pki.url });
  pki.serve(ca);
  const tsa = await startTsaStandin({ ca });
  stops.push(tsa.stop);
  // KMS, where the seal key lives (in memory for `memory`).
  const kms = await startKmsStandin({ region: LOCAL_REGION, ...(memory ? {} : { file: paths.kms }) });
  stops.push(kms.stop);
  // S3 asks KMS for each SSE-KMS write's data key and each read's decryption, as on AWS.
  const s3Kms = new KMSClient({
    region: LOCAL_REGION,
    endpoint: kms.endpoint,
    credentials: LOCAL_CREDENTIALS,
  });
  // The bucket's default encryption is the stack's documents key, as on AWS (storage.ts).
  s3.useKms(s3Kms, `alias/${documentsName(LOCAL_STAGE)}`);
  stops.push(async () => s3Kms.destroy());
  // The provider the demo account's single sign-on goes to (its client is registered later,
  // once the service's address is known).
  const oidc = await startOidcStandin({ host: STAND_IN_HOST });
  stops.push(oidc.stop);
  return {
    dynamo,
    s3,
    sqs,
    mailbox,
    mailboxDir: paths.mailbox,
    control,
    pki,
    ca,
    tsa,
    kms,
    oidc,
    /** Hands SES's bounce and complaint reports to the notifications worker once it runs. */
    onMailEvent(handler: (notification: string) => Promise<void>) {
      mailEvents = handler;
    },
  };
}

/**
 * What an operator sets up on AWS before the first request, done on every start (each step
 * keeps what is there): the seal (key, certificate from the local CA, chain), the table with
 * its indexes, and the queues, whose URLs it answers.
 */
export async function prepareStandIns(
  standIns: TStandIns,
  dataDir: string,
  sqsClient: SQSClient,
  log: TLogger,
) {
  const { kms, ca, dynamo } = standIns;
  const kmsClient = new KMSClient({
    region: LOCAL_REGION,
    endpoint: kms.endpoint,
    credentials: LOCAL_CREDENTIALS,
  });
  try {
    await ensureLocalSeal({
      kms: kmsClient,
      ca,
      chains: createLocalSealChains(dataPaths(dataDir).sealChains, LOCAL_SEAL_NAME),
      name: LOCAL_SEAL_NAME,
    });
    // The stack's documents key, which CDK makes on AWS.
    await ensureDocumentsKey(kmsClient, documentsName(LOCAL_STAGE), LOCAL_REGION);
  } finally {
    kmsClient.destroy();
  }

  const added = await ensureLocalTable(
    new DynamoDBClient({ region: LOCAL_REGION, endpoint: dynamo.endpoint, credentials: LOCAL_CREDENTIALS }),
    LOCAL_TABLE_NAME,
  );
  if (added.length > 0) log.info('local table rebuilt with new indexes, data kept', { added });
  return ensureQueues(sqsClient, LOCAL_STAGE);
}
