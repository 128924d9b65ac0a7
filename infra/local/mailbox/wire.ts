// The HTTP answer a stand-in gives, independent of node:http so parsers stay plain functions.
export interface TWireReply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A request the stand-in refuses, in terms the calling SDK maps to one of its error classes. */
export interface TWireFault {
  status: number;
  code: string;
  message: string;
}

export type TParseResult<T> = { ok: true; value: T } | { ok: false; fault: TWireFault };

export const fault = (status: number, code: string, message: string): { ok: false; fault: TWireFault } => ({
  ok: false,
  fault: { status, code, message },
});
