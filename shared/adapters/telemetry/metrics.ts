// The TMetrics port on Powertools for AWS Lambda's Metrics: CloudWatch's embedded metric format
// (EMF), one JSON object a line on stdout, which CloudWatch turns into metrics without an API call
// from the function. A metric with dimensions of its own (a route, an outcome) goes out at once as
// a single metric, since the dimensions of a flush apply to all its metrics; the others are
// buffered and flushed once per invocation by the logMetrics middleware.
import { Console } from 'node:console';
import { Writable } from 'node:stream';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { TMetrics } from '#shared/domain/ports/metrics';
import type { TLogger } from '#shared/logger';

export const METRICS_NAMESPACE = 'OpenEsign';

/** One EMF object as printed (tests read them). */
export type TEmf = Record<string, unknown>;

type TMetricsOptions = NonNullable<ConstructorParameters<typeof Metrics>[0]>;

/** Powertools' Metrics printing to `out` when given (a collector), else to stdout. */
class ServiceMetrics extends Metrics {
  readonly #options: TMetricsOptions;
  readonly #out: Writable | undefined;

  constructor(options: TMetricsOptions, out?: Writable) {
    super(options);
    this.#options = options;
    this.#out = out;
    // Powertools keeps its Console private; a collector replaces it, nothing else does.
    if (out) Reflect.set(this, 'console', new Console({ stdout: out, stderr: out }));
  }

  override singleMetric(): Metrics {
    return new ServiceMetrics({ ...this.#options, singleMetric: true }, this.#out);
  }
}

/** A stream handing each printed EMF object to `sink`. */
function collector(sink: (emf: TEmf) => void): Writable {
  return new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line.trim()) sink(JSON.parse(line) as TEmf);
      done();
    },
  });
}

export interface TServiceMetricsOptions {
  /** The `service` dimension: the function's name. */
  service: string;
  /** The `stage` dimension. */
  stage: string;
  /** Powertools' own complaints (a metric it cannot publish) go here, at debug. */
  log: TLogger;
  /** POWERTOOLS_METRICS_NAMESPACE on Lambda; METRICS_NAMESPACE by default. */
  namespace?: string;
  /** Where EMF goes instead of stdout (the local runtime's collector in tests). */
  sink?: (emf: TEmf) => void;
}

/** The port and the Powertools instance behind it, for the logMetrics middleware. */
export function createServiceMetrics(opts: TServiceMetricsOptions): {
  metrics: TMetrics;
  powertools: Metrics;
} {
  const powertools = new ServiceMetrics(
    {
      namespace: opts.namespace ?? METRICS_NAMESPACE,
      serviceName: opts.service,
      defaultDimensions: { stage: opts.stage },
      // An invocation that recorded nothing (most scheduler runs) is no fault worth a log line.
      logger: {
        debug: (m: string) => opts.log.debug(m),
        info: (m: string) => opts.log.debug(m),
        warn: (m: string) => opts.log.debug(m),
        error: (m: string) => opts.log.warn(m),
      },
    },
    opts.sink ? collector(opts.sink) : undefined,
  );
  const record = (
    name: string,
    unit: 'Count' | 'Milliseconds',
    value: number,
    by?: Record<string, string>,
  ) => {
    if (!by || Object.keys(by).length === 0) {
      powertools.addMetric(name, MetricUnit[unit], value);
      return;
    }
    const single = powertools.singleMetric();
    single.addDimensions(by);
    single.addMetric(name, MetricUnit[unit], value);
  };
  return {
    powertools,
    metrics: {
      count: (name, by, value = 1) => record(name, 'Count', value, by),
      duration: (name, ms, by) => record(name, 'Milliseconds', Math.round(ms), by),
    },
  };
}

/** Metrics off: locally unless a collector is asked for. */
export const noMetrics: TMetrics = { count: () => undefined, duration: () => undefined };
