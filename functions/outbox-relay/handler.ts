import { lambdaFunction } from '#shared/adapters/telemetry/lambda';
import { buildOutboxRelay } from './app';

export const handler = buildOutboxRelay(lambdaFunction('outbox-relay'));
