// The TLogger port on Powertools for AWS Lambda's Logger: one JSON object a line, with the Lambda
// invocation's request id, cold start and X-Ray trace id once injectLambdaContext has run. The
// masking happens in the formatter, the last step before a line is printed, so nothing logged
// through this logger (fields, a child's keys, keys appended to the Powertools instance) escapes it.
import { LogFormatter, Logger, LogItem } from '@aws-lambda-powertools/logger';
import type { LogAttributes, UnformattedAttributes } from '@aws-lambda-powertools/logger/types';
import { redact, type TLogger, type TLogLevel } from '#shared/logger';

/**
 * The lines keep the shape the service has always printed (`level`, `time`, `msg`, then the
 * fields), so log queries written against them keep working; Powertools' Lambda fields follow
 * when there is an invocation to describe.
 */
class MaskingFormatter extends LogFormatter {
  override formatAttributes(attributes: UnformattedAttributes, fields: LogAttributes): LogItem {
    const lambda = attributes.lambdaContext;
    const base: LogAttributes = {
      level: attributes.logLevel.toLowerCase(),
      time: this.formatTimestamp(attributes.timestamp),
      msg: attributes.message,
      service: attributes.serviceName,
      ...(lambda ? { function_request_id: lambda.awsRequestId, cold_start: lambda.coldStart } : {}),
      ...(attributes.xRayTraceId ? { xray_trace_id: attributes.xRayTraceId } : {}),
    };
    return new LogItem({ attributes: base }).addAttributes(redact(fields) as LogAttributes);
  }
}

type TWrite = (line: string) => void;

/** Powertools' Logger printing through `write` when one is given (tests read the lines). */
class ServiceLogger extends Logger {
  readonly #write: TWrite | undefined;

  constructor(options: ConstructorParameters<typeof Logger>[0], write?: TWrite) {
    super(options);
    this.#write = write;
  }

  protected override printLog(level: number, log: LogItem): void {
    if (!this.#write) {
      super.printLog(level, log);
      return;
    }
    log.prepareForPrint();
    this.#write(JSON.stringify(log.getAttributes(), this.getJsonReplacer()));
  }
}

const POWERTOOLS_LEVEL = {
  debug: 'DEBUG',
  info: 'INFO',
  warn: 'WARN',
  error: 'ERROR',
  silent: 'SILENT',
} as const satisfies Record<TLogLevel, string>;

/** The Powertools instance behind each TLogger, for the middlewares that bind it to an invocation. */
const instances = new WeakMap<TLogger, Logger>();

/**
 * The port on `logger`, each line carrying `bound` (a child's keys) before its own fields. A child
 * prints through its parent's instance rather than a Powertools child: that is a whole new Logger,
 * its options read from the environment again, and the API makes a child per request (about
 * 45 µs each in a warm loop, against 4 µs this way, most of it for lines a production level
 * never prints).
 */
function asPort(logger: Logger, bound: Record<string, unknown> = {}): TLogger {
  const withBound = (fields: Record<string, unknown> | undefined) => ({ ...bound, ...fields });
  const port: TLogger = {
    debug: (msg, fields) => logger.debug(msg, withBound(fields)),
    info: (msg, fields) => logger.info(msg, withBound(fields)),
    warn: (msg, fields) => logger.warn(msg, withBound(fields)),
    error: (msg, fields) => logger.error(msg, withBound(fields)),
    child: (fields) => asPort(logger, withBound(fields)),
  };
  instances.set(port, logger);
  return port;
}

export interface TLoggerOptions {
  /** POWERTOOLS_SERVICE_NAME on Lambda; the function's name locally. */
  service?: string;
  /** Keys on every line. */
  base?: Record<string, unknown>;
  /** Where lines go; stdout by default. */
  write?: TWrite;
}

/** A logger at `level` ('silent' prints nothing). */
export function createLogger(level: TLogLevel = 'info', options: TLoggerOptions = {}): TLogger {
  const logger = new ServiceLogger(
    {
      logLevel: POWERTOOLS_LEVEL[level],
      serviceName: options.service ?? process.env.POWERTOOLS_SERVICE_NAME ?? 'open-esign',
      logFormatter: new MaskingFormatter(),
      persistentKeys: options.base ?? {},
    },
    options.write,
  );
  return asPort(logger);
}

/** The Powertools Logger behind a logger this module made (undefined for any other TLogger). */
export function powertoolsLoggerOf(log: TLogger): Logger | undefined {
  return instances.get(log);
}
