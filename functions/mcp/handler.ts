import { lambdaFunction } from '#shared/adapters/telemetry/lambda';
import { buildMcpHandler } from './app';

export const handler = buildMcpHandler(lambdaFunction('mcp'));
