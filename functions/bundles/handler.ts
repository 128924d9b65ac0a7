import { lambdaFunction } from '#shared/adapters/telemetry/lambda';
import { buildBundlesHandler } from './app';

export const handler = buildBundlesHandler(lambdaFunction('bundles'));
