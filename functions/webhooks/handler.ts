import { lambdaFunction } from '#shared/adapters/telemetry/lambda';
import { buildWebhooksHandler } from './app';

export const handler = buildWebhooksHandler(lambdaFunction('webhooks'));
