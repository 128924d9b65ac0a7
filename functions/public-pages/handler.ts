import { configFromEnv } from '../../shared/config';
import { buildPublicPagesHandler } from './app';

export const handler = buildPublicPagesHandler({ config: configFromEnv() });
