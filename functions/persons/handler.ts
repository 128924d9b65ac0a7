import { configFromEnv } from '../../shared/config';
import { buildPersonsHandler } from './app';

export const handler = buildPersonsHandler({ config: configFromEnv() });
