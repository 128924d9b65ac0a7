import { APIGatewayClient } from '@aws-sdk/client-api-gateway';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { KMSClient } from '@aws-sdk/client-kms';
import { S3Client } from '@aws-sdk/client-s3';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { TConfig } from '#shared/config';
import { common, prepared } from './client-setup';

// One factory per service so that local and AWS differ only in endpoint and credentials, each
// client set up as every client is (client-setup.ts). A client some function loads only
// on demand has a file of its own beside this one (sns-client.ts, secrets-manager-client.ts):
// importing this file dynamically would keep every factory here, and so every client, alive.

export function createDocumentClient(config: TConfig): DynamoDBDocumentClient {
  const client = prepared(
    config,
    new DynamoDBClient({ ...common(config, config.endpoints.dynamodb), maxAttempts: 4 }),
  );
  return DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  });
}

export function createApiGatewayClient(config: TConfig): APIGatewayClient {
  return prepared(config, new APIGatewayClient(common(config, config.endpoints.apigateway)));
}

export function createS3Client(config: TConfig): S3Client {
  return prepared(
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
  return prepared(config, new SQSClient(common(config, config.endpoints.sqs)));
}

export function createKmsClient(config: TConfig): KMSClient {
  return prepared(config, new KMSClient(common(config, config.endpoints.kms)));
}

export function createSesClient(config: TConfig): SESv2Client {
  return prepared(config, new SESv2Client(common(config, config.endpoints.sesv2)));
}
