// The service on AWS, one concern per file of infra/constructs/: where records and documents are
// kept (storage), the API and its security (api), keys and operator secrets (evidence-and-keys),
// the queues and what sets each worker off (queues-and-workers), every Lambda with its grants
// (functions), the front door with the static files (edge), and what an operator watches
// (operations).
//
// Every concern but Operations makes its resources in this stack's own scope, in the order they
// were made when this was one constructor: a logical ID follows the construct path, and a changed
// one makes CloudFormation replace the resource (the table, the buckets, the seal key).
import { CfnOutput, Stack, type StackProps, Tags } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { API_PREFIX, Api } from './constructs/api';
import { Deployments } from './constructs/deployments';
import { Edge } from './constructs/edge';
import { EvidenceAndKeys } from './constructs/evidence-and-keys';
import { Functions } from './constructs/functions';
import { Operations } from './constructs/operations';
import { QueuesAndWorkers } from './constructs/queues-and-workers';
import { Storage } from './constructs/storage';
import type { TStageConfig } from './stage-config';

export interface EsignStackProps extends StackProps {
  config: TStageConfig;
}

export class EsignStack extends Stack {
  constructor(scope: Construct, id: string, props: EsignStackProps) {
    super(scope, id, { ...props, terminationProtection: props.config.deletionProtection });
    const { config } = props;
    Tags.of(this).add('project', 'open-esign');
    Tags.of(this).add('stage', config.stage);

    const storage = new Storage(this, config);
    const api = new Api(this, id, config, storage);
    const keys = new EvidenceAndKeys(this, config);
    const queues = new QueuesAndWorkers(this, config);
    const edge = new Edge(this, config, api.api);
    api.requireEdge(edge, config);
    const functions = new Functions(this, { config, storage, api, edge, keys, queues });
    queues.wire(functions, storage.table);
    storage.allowDocumentFetchesFrom([edge.publicBaseUrl, api.executeApiOrigin]);
    api.serve(functions.endpoints);

    // Last: the alarms watch every function made above, and every alarm acts on one topic.
    const operations = new Operations(this, 'Operations', {
      stage: config.stage,
      ...(config.alarmEmail ? { alarmEmail: config.alarmEmail } : {}),
      api: api.api,
      table: storage.table,
      queues: [
        { what: 'Webhook deliveries', queue: queues.webhookQueue },
        { what: 'Notifications', queue: queues.notifications },
        { what: 'Document jobs', queue: queues.documentJobs },
        { what: 'Bulk send chunks', queue: queues.bulkJobs },
      ],
    });
    operations.finish();
    new Deployments(this, 'Deployments', {
      stage: config.stage,
      style: config.deployment,
      alarmsOf: (fn) => operations.alarmsOf.get(fn) ?? [],
    });
    new CfnOutput(this, 'AlarmTopicArn', { value: operations.topic.topicArn });

    new CfnOutput(this, 'ApiUrl', { value: `${edge.publicBaseUrl}/${API_PREFIX.join('/')}/` });
    new CfnOutput(this, 'ConsoleUrl', { value: `${edge.publicBaseUrl}/console/` });
    new CfnOutput(this, 'TableName', { value: storage.table.tableName });
    new CfnOutput(this, 'BucketName', { value: storage.bucket.bucketName });
    new CfnOutput(this, 'UsagePlanId', { value: api.usagePlan.usagePlanId });
    new CfnOutput(this, 'Region', { value: this.region });
    new CfnOutput(this, 'SealName', { value: keys.sealName });
    // The key that seals secrets (webhook secrets, single sign-on client secrets): set-sso needs it.
    new CfnOutput(this, 'SecretsKeyId', { value: keys.secretsKey.keyArn });
    // The documents key's name, which the account-key-* commands make accounts' own keys beside.
    new CfnOutput(this, 'DocumentsName', { value: storage.documentsName });
  }
}
