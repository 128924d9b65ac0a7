import { configFromEnv } from '../../shared/config';
import { buildOutboxSweeper } from './app';

export const handler = buildOutboxSweeper({ config: configFromEnv() });
