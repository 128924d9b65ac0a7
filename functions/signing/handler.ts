import { configFromEnv } from '../../shared/config';
import { buildSigningHandler } from './app';

export const handler = buildSigningHandler({ config: configFromEnv() });
