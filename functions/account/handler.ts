import { lambdaFunction } from '#shared/adapters/telemetry/lambda';
import { buildAccountHandler } from './app';

export const handler = buildAccountHandler(lambdaFunction('account'));
