import { lambdaFunction } from '#shared/adapters/telemetry/lambda';
import { buildPersonsHandler } from './app';

export const handler = buildPersonsHandler(lambdaFunction('persons'));
