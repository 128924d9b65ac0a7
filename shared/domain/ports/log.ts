// Where the job handlers (shared/domain/outbox/jobs/) write their log lines: the function's
// logger (shared/logger.ts, which masks secrets), seen through the few calls they make.

type TLogLine = (msg: string, fields?: Record<string, unknown>) => void;

export interface TLog {
  info: TLogLine;
  warn: TLogLine;
  error: TLogLine;
}
