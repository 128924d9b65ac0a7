import { APIGatewayClient } from '@aws-sdk/client-api-gateway';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { KMSClient } from '@aws-sdk/client-kms';
import { S3Client } from '@aws-sdk/client-s3';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { TConfig } from '#shared/config';

// One factory per service so that local and AWS differ only in endpoint and credentials. On
// Lambda each client's calls are traced (config.traceClient). A client some function loads only
// on demand has a file of its own beside this one (sns-client.ts, secrets-manager-client.ts):
// importing this file dynamically would keep every factory here, and so every client, alive.

/** What every client is made with: the region, and locally the endpoint and credentials. */
export function common(config: TConfig, endpoint: string | undefined) {
  return {
    region: config.region,
    ...(endpoint ? { endpoint } : {}),
    ...(config.credentials ? { credentials: config.credentials } : {}),
  };
}

/**
 * The client without the SDK's logger middleware, then traced. That middleware copies every
 * call's input and output through a filter of sensitive values to hand them to the client's
 * logger, and does it even for the SDK's default logger, which logs nothing. The service gives
 * the SDK no logger (its own logs say what happened), so the copies were pure cost: about a
 * tenth of the CPU of a DynamoDB call.
 */
export function traced<T extends { middlewareStack: { remove(name: string): boolean } }>(
  config: TConfig,
  client: T,
): T {
  client.middlewareStack.remove(SDK_LOGGER_MIDDLEWARE);
  return config.traceClient ? config.traceClient(client) : client;
}

/** The name the SDK gives its logger middleware in every client's stack. */
export const SDK_LOGGER_MIDDLEWARE = 'loggerMiddleware';

export function createDocumentClient(config: TConfig): DynamoDBDocumentClient {
  const client = traced(
    config,
    new DynamoDBClient({ ...common(config, config.endpoints.dynamodb), maxAttempts: 4 }),
  );
  return DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  });
}

export function createApiGatewayClient(config: TConfig): APIGatewayClient {
  return traced(config, new APIGatewayClient(common(config, config.endpoints.apigateway)));
}

export function createS3Client(config: TConfig): S3Client {
  return traced(
    config,
    new S3Client({
      ...common(config, config.endpoints.s3),
      // s3rver locally answers path-style only; its checksum handling corrupts streamed uploads
      // unless checksums are computed only when required (DESIGN.md).
      forcePathStyle: Boolean(config.endpoints.s3),
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    }),
  );
}

export function createSqsClient(config: TConfig): SQSClient {
  return traced(config, new SQSClient(common(config, config.endpoints.sqs)));
}

export function createKmsClient(config: TConfig): KMSClient {
  return traced(config, new KMSClient(common(config, config.endpoints.kms)));
}

export function createSesClient(config: TConfig): SESv2Client {
  return traced(config, new SESv2Client(common(config, config.endpoints.sesv2)));
}
