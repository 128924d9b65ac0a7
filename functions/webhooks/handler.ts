import { configFromEnv } from '../../shared/config';
import { buildWebhooksHandler } from './app';

export const handler = buildWebhooksHandler({ config: configFromEnv() });
