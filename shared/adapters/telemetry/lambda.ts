// What a Lambda entry (functions/*/handler.ts) runs with: its configuration from the environment
// and Powertools' logger, metrics and tracer. Only the entries import this module, so the X-Ray
// SDK the tracer brings is loaded on Lambda and never by the local runtime or the tests.
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import { Tracer } from '@aws-lambda-powertools/tracer';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import { configFromEnv, type TConfig } from '#shared/config';
import { createLogger, powertoolsLoggerOf } from './logger';
import { createServiceMetrics } from './metrics';
import type { TTelemetry } from './telemetry';

export function lambdaFunction(name: string): { config: TConfig; telemetry: TTelemetry } {
  const env = process.env;
  const service = env.POWERTOOLS_SERVICE_NAME || name;
  // Off outside Lambda, and with POWERTOOLS_TRACE_ENABLED=false. Outgoing HTTP calls are not
  // traced: webhook and file_url addresses are the senders' and may carry credentials, which a
  // trace would keep. Responses are not recorded either (the handler below): they hold signers'
  // data.
  const tracer = new Tracer({ serviceName: service, captureHTTPsRequests: false });
  const config: TConfig = {
    ...configFromEnv(env),
    traceClient: (client) => tracer.captureAWSv3Client(client),
  };
  const log = createLogger(config.logLevel, { service });
  const { metrics, powertools } = createServiceMetrics({
    service,
    stage: config.stage,
    log,
    ...(env.POWERTOOLS_METRICS_NAMESPACE ? { namespace: env.POWERTOOLS_METRICS_NAMESPACE } : {}),
  });
  return {
    config,
    telemetry: {
      log,
      metrics,
      middlewares: [
        captureLambdaHandler(tracer, { captureResponse: false }),
        injectLambdaContext(powertoolsLoggerOf(log)!),
        logMetrics(powertools, { captureColdStartMetric: true }),
      ],
    },
  };
}
