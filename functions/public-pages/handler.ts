import { lambdaFunction } from '#shared/adapters/telemetry/lambda';
import { buildPublicPagesHandler } from './app';

export const handler = buildPublicPagesHandler(lambdaFunction('public-pages'));
