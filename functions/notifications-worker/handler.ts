import { lambdaFunction } from '#shared/adapters/telemetry/lambda';
import { buildNotificationsWorker } from './app';

export const handler = buildNotificationsWorker(lambdaFunction('notifications-worker'));
