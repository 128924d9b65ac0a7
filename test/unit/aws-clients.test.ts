// The service's AWS clients leave out the SDK's logger middleware: it copies every call's input
// and output through a filter of sensitive values for a logger the service never gives the SDK
// (shared/adapters/aws/client-setup.ts). A client made straight from the SDK still has it.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { SDK_LOGGER_MIDDLEWARE } from '#shared/adapters/aws/client-setup';
import {
  createApiGatewayClient,
  createDocumentClient,
  createKmsClient,
  createS3Client,
  createSesClient,
  createSqsClient,
} from '#shared/adapters/aws/clients';
import { createSecretsManagerClient } from '#shared/adapters/aws/secrets-manager-client';
import { createSnsClient } from '#shared/adapters/aws/sns-client';
import { configFromEnv } from '#shared/config';

const config = configFromEnv({ TABLE_NAME: 'esign-test', AWS_REGION: 'us-east-1' });
const hasLogger = (client: { middlewareStack: { identify(): string[] } }) =>
  client.middlewareStack.identify().some((m) => m.startsWith(`${SDK_LOGGER_MIDDLEWARE} `));

describe("the service's AWS clients", () => {
  it('leave out the logger middleware a client straight from the SDK has', () => {
    expect(hasLogger(new DynamoDBClient({ region: 'us-east-1' }))).toBe(true);
    const made = {
      dynamodb: createDocumentClient(config),
      apigateway: createApiGatewayClient(config),
      s3: createS3Client(config),
      sqs: createSqsClient(config),
      kms: createKmsClient(config),
      ses: createSesClient(config),
      sns: createSnsClient(config),
      secretsmanager: createSecretsManagerClient(config),
    };
    for (const [name, client] of Object.entries(made)) expect(hasLogger(client), name).toBe(false);
  });
});
