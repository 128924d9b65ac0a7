import { configFromEnv } from '../../shared/config';
import { buildNotificationsWorker } from './app';

export const handler = buildNotificationsWorker({ config: configFromEnv() });
