import type { Context } from 'aws-lambda';
import { lambdaFunction } from '#shared/adapters/telemetry/lambda';
import { buildScheduler } from './app';

const run = buildScheduler(lambdaFunction('scheduler'));

/** The EventBridge event says nothing the run needs: it works with the clock. */
export const handler = (_event: unknown, context: Context) => run(undefined, context);
