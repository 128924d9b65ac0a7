import { lambdaFunction } from '#shared/adapters/telemetry/lambda';
import { buildWebhookDispatcher } from './app';

export const handler = buildWebhookDispatcher(lambdaFunction('webhook-dispatcher'));
