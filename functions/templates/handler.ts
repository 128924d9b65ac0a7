import { lambdaFunction } from '#shared/adapters/telemetry/lambda';
import { buildTemplatesHandler } from './app';

export const handler = buildTemplatesHandler(lambdaFunction('templates'));
