import { lambdaFunction } from '#shared/adapters/telemetry/lambda';
import { buildBulkWorker } from './app';

export const handler = buildBulkWorker(lambdaFunction('bulk-worker'));
