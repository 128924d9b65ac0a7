import * as z from 'zod';
import { optional, zBoolean, zList, zText } from './common';
import { SUBSCRIBABLE_EVENT_TYPES, type TSubscribableEventType } from './vocabulary';

export const WEBHOOK_LIMITS = {
  url: 2048,
  headerName: 80,
  headerValue: 240,
  /** Extra headers of one webhook, kept inside the webhook item. */
  headers: 20,
} as const;

/** Absent, null and "" answer "This field is required." rather than zod's type message. */
function required<T extends z.ZodType>(schema: T) {
  return z
    .unknown()
    .refine((v) => v !== undefined && v !== null && v !== '', {
      message: 'This field is required.',
      abort: true,
    })
    .pipe(schema);
}

const eventTypeMessage = `Choose from ${SUBSCRIBABLE_EVENT_TYPES.join(', ')}.`;
const eventType = z.enum(SUBSCRIBABLE_EVENT_TYPES, eventTypeMessage);

/** Non-empty; a type listed twice is kept once, in the order first given. */
const eventTypes = zList(eventType, { min: 1, minMessage: 'Choose at least one event type.' }).transform(
  (list): TSubscribableEventType[] => [...new Set(list)],
);

function isHttpUrl(s: string): boolean {
  if (!/^https?:\/\/[^\s]+$/i.test(s)) return false;
  try {
    const u = new URL(s);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
  } catch {
    return false;
  }
}

const url = zText(WEBHOOK_LIMITS.url)
  .trim()
  .min(1, 'This field may not be blank.')
  .refine(isHttpUrl, 'Enter a valid URL starting with http:// or https://.');

/** RFC 7230 token characters. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Headers the service sets itself on every call; a client's value would break or forge the call. */
const REFUSED_NAMES = ['host', 'content-length', 'content-type', 'transfer-encoding', 'connection'];
const REFUSED_PREFIXES = ['x-blueink-', 'webhook-'];

export function isRefusedHeaderName(name: string): boolean {
  const lower = name.toLowerCase();
  return REFUSED_NAMES.includes(lower) || REFUSED_PREFIXES.some((p) => lower.startsWith(p));
}

const headerName = zText(WEBHOOK_LIMITS.headerName)
  .trim()
  .min(1, 'This field may not be blank.')
  .superRefine((name, ctx) => {
    if (!TOKEN.test(name)) {
      ctx.addIssue({
        code: 'custom',
        message: "A header name has only letters, digits and !#$%&'*+-.^_`|~ (RFC 7230 token).",
      });
    } else if (isRefusedHeaderName(name)) {
      ctx.addIssue({
        code: 'custom',
        message: `"${name}" is set by the service on every call; it cannot be an extra header.`,
      });
    }
  });

/** Tab, printable ASCII and printable Latin-1: what an HTTP field value can carry as bytes. */
function headerValueProblem(v: string): string | undefined {
  for (const ch of v) {
    const c = ch.codePointAt(0)!;
    if (c === 0x09) continue;
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) {
      return 'A header value may not contain line breaks or control characters other than tab.';
    }
    if (c > 0xff) return 'A header value may contain only ASCII and Latin-1 characters.';
  }
  return undefined;
}

// Checked before trimming, so a trailing line break is refused rather than silently dropped.
const headerValue = zText(WEBHOOK_LIMITS.headerValue)
  .superRefine((v, ctx) => {
    const problem = headerValueProblem(v);
    if (problem) ctx.addIssue({ code: 'custom', message: problem, abort: true });
  })
  .trim()
  .min(1, 'This field may not be blank.');

const order = z.preprocess(
  (v) => (typeof v === 'string' && /^\s*-?\d{1,10}\s*$/.test(v) ? Number(v) : v),
  z
    .number('A valid integer is required.')
    .int('A valid integer is required.')
    .min(-2147483648, 'Ensure this value is at least -2147483648.')
    .max(2147483647, 'Ensure this value is at most 2147483647.'),
);

const uuid = z.uuid('Must be a valid UUID.');

/** A header given inline on a webhook; an `id` of one of its headers keeps that header's id. */
export const ZInlineHeaderSchema = z.object({
  id: optional(uuid),
  name: required(headerName),
  value: required(headerValue),
  order: optional(order),
});

export type TInlineHeader = z.output<typeof ZInlineHeaderSchema>;

const extraHeaders = zList(ZInlineHeaderSchema, { max: WEBHOOK_LIMITS.headers });

/** POST and PUT: the whole webhook; headers left out of a PUT are removed. */
export const ZWebhookWriteSchema = z.object({
  url: required(url),
  enabled: optional(zBoolean),
  json: optional(zBoolean),
  event_types: required(eventTypes),
  extra_headers: optional(extraHeaders),
});

/** PATCH: anything given replaces the stored value (extra_headers as a whole set). */
export const ZWebhookPatchSchema = z.object({
  url: optional(url),
  enabled: optional(zBoolean),
  json: optional(zBoolean),
  event_types: optional(eventTypes),
  extra_headers: optional(extraHeaders),
});

export type TWebhookWrite = z.output<typeof ZWebhookWriteSchema>;
export type TWebhookPatch = z.output<typeof ZWebhookPatchSchema>;

/** POST and PUT of one header. */
export const ZWebhookHeaderWriteSchema = z.object({
  webhook: required(uuid),
  name: required(headerName),
  value: required(headerValue),
  order: optional(order),
});

export const ZWebhookHeaderPatchSchema = z.object({
  webhook: optional(uuid),
  name: optional(headerName),
  value: optional(headerValue),
  order: optional(order),
});

export type TWebhookHeaderWrite = z.output<typeof ZWebhookHeaderWriteSchema>;
export type TWebhookHeaderPatch = z.output<typeof ZWebhookHeaderPatchSchema>;

/** A comma-separated list of event types; empty items are ignored, duplicates kept once. */
const eventTypeCsv = zText(2000).transform((raw, ctx) => {
  const values: TSubscribableEventType[] = [];
  for (const piece of raw.split(',')) {
    if (piece.trim() === '') continue;
    const parsed = eventType.safeParse(piece.trim());
    if (!parsed.success) {
      ctx.addIssue({ code: 'custom', message: `"${piece}": ${eventTypeMessage}` });
      return z.NEVER;
    }
    if (!values.includes(parsed.data)) values.push(parsed.data);
  }
  return values;
});

export const ZWebhookListQuerySchema = z.object({
  enabled: optional(zBoolean),
  event_type: optional(eventType),
  event_type__in: optional(eventTypeCsv),
});

export const ZWebhookHeaderListQuerySchema = z.object({
  webhook: optional(uuid),
  event_type: optional(eventType),
  event_type__in: optional(eventTypeCsv),
});
