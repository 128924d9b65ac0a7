// What a function reports about itself, handed to its composition root as one thing: the logger,
// the metrics, and the middy middlewares that bind them to an invocation. On Lambda (lambda.ts)
// these are Powertools' injectLambdaContext, captureLambdaHandler and logMetrics; locally the
// same logger and, when a collector is asked for, the same metrics with their flush.

import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import middy, { type MiddlewareObj } from '@middy/core';
import type { Context } from 'aws-lambda';
import type { TMetrics } from '#shared/domain/ports/metrics';
import type { TLogger } from '#shared/logger';
import { createServiceMetrics, noMetrics, type TEmf } from './metrics';

export interface TTelemetry {
  log: TLogger;
  metrics: TMetrics;
  /** Used first on the function's middy chain, in this order. */
  // biome-ignore lint/suspicious/noExplicitAny: middlewares of any event and result
  middlewares: MiddlewareObj<any, any, Error, any>[];
}

/** A logger alone: no metrics, nothing bound to invocations (tests, tools). */
export function quietTelemetry(log: TLogger): TTelemetry {
  return { log, metrics: noMetrics, middlewares: [] };
}

/**
 * The local runtime's: the function's logger, and metrics only with a collector (`sink`), flushed
 * per invocation as on Lambda. Without one, metrics are off: nothing local reads EMF, and the
 * console stays readable.
 */
export function localTelemetry(opts: {
  log: TLogger;
  service: string;
  stage: string;
  sink?: (emf: TEmf) => void;
}): TTelemetry {
  if (!opts.sink) return quietTelemetry(opts.log);
  const { metrics, powertools } = createServiceMetrics({ ...opts, sink: opts.sink });
  return { log: opts.log, metrics, middlewares: [logMetrics(powertools)] };
}

/** A worker (queue or schedule handler) with its telemetry's middlewares around it. */
export function withTelemetry<TEvent, TResult>(
  telemetry: TTelemetry,
  handler: (event: TEvent, context?: Context) => Promise<TResult>,
): (event: TEvent, context?: Context) => Promise<TResult> {
  if (telemetry.middlewares.length === 0) return handler;
  const wrapped = middy<TEvent, TResult>().handler((event, context) => handler(event, context));
  for (const m of telemetry.middlewares) wrapped.use(m);
  // Locally a queue worker is called without a context; middy wants one.
  return (event, context) => wrapped(event, context ?? ({} as Context));
}
