import { configFromEnv } from '../../shared/config';
import { buildTemplatesHandler } from './app';

export const handler = buildTemplatesHandler({ config: configFromEnv() });
