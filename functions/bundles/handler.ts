import { configFromEnv } from '../../shared/config';
import { buildBundlesHandler } from './app';

export const handler = buildBundlesHandler({ config: configFromEnv() });
