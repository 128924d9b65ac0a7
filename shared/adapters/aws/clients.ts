import { APIGatewayClient } from '@aws-sdk/client-api-gateway';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { TConfig } from '../../config';

// One factory per service so that local and AWS differ only in endpoint and credentials.

function common(config: TConfig, endpoint: string | undefined) {
  return {
    region: config.region,
    ...(endpoint ? { endpoint } : {}),
    ...(config.credentials ? { credentials: config.credentials } : {}),
  };
}

export function createDocumentClient(config: TConfig): DynamoDBDocumentClient {
  const client = new DynamoDBClient({ ...common(config, config.endpoints.dynamodb), maxAttempts: 4 });
  return DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  });
}

export function createApiGatewayClient(config: TConfig): APIGatewayClient {
  return new APIGatewayClient(common(config, config.endpoints.apigateway));
}
