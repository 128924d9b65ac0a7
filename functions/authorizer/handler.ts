import { configFromEnv } from '../../shared/config';
import { buildAuthorizer } from './app';

export const handler = buildAuthorizer({ config: configFromEnv() });
