import { configFromEnv } from '../../shared/config';
import { buildMcpHandler } from './app';

export const handler = buildMcpHandler({ config: configFromEnv() });
