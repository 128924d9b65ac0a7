import { lambdaFunction } from '#shared/adapters/telemetry/lambda';
import { buildAuthorizer } from './app';

export const handler = buildAuthorizer(lambdaFunction('authorizer'));
