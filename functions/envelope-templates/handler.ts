import { configFromEnv } from '../../shared/config';
import { buildEnvelopeTemplatesHandler } from './app';

export const handler = buildEnvelopeTemplatesHandler({ config: configFromEnv() });
