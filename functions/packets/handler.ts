import { configFromEnv } from '../../shared/config';
import { buildPacketsHandler } from './app';

export const handler = buildPacketsHandler({ config: configFromEnv() });
