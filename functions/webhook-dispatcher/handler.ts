import { configFromEnv } from '../../shared/config';
import { buildWebhookDispatcher } from './app';

export const handler = buildWebhookDispatcher({ config: configFromEnv() });
