import { lambdaFunction } from '#shared/adapters/telemetry/lambda';
import { buildPacketsHandler } from './app';

export const handler = buildPacketsHandler(lambdaFunction('packets'));
