import { lambdaFunction } from '#shared/adapters/telemetry/lambda';
import { buildOutboxSweeper } from './app';

export const handler = buildOutboxSweeper(lambdaFunction('outbox-sweeper'));
