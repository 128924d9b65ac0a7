import { configFromEnv } from '../../shared/config';
import { buildAccountHandler } from './app';

export const handler = buildAccountHandler({ config: configFromEnv() });
