import { configFromEnv } from '../../shared/config';
import { buildDocumentWorker } from './app';

export const handler = buildDocumentWorker({ config: configFromEnv() });
