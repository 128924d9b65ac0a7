import { lambdaFunction } from '#shared/adapters/telemetry/lambda';
import { buildEnvelopeTemplatesHandler } from './app';

export const handler = buildEnvelopeTemplatesHandler(lambdaFunction('envelope-templates'));
