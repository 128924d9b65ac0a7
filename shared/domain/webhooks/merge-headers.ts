import type { TInlineHeader } from '#shared/schemas/webhook';
import { WEBHOOK_LIMITS } from '#shared/schemas/webhook';
import { ValidationError } from '../errors';
import type { TWebhookHeader } from './webhook';

export const DEFAULT_HEADER_ORDER = 1;

/** A webhook keeps at most WEBHOOK_LIMITS.headers extra headers, in one item. */
export function checkHeaderCount(headers: TWebhookHeader[], field: string): void {
  if (headers.length > WEBHOOK_LIMITS.headers) {
    throw new ValidationError('Invalid input.', [
      { field, message: `A webhook has at most ${WEBHOOK_LIMITS.headers} extra headers.` },
    ]);
  }
}

/**
 * Inline `extra_headers` replace the webhook's headers, in the order given. A header with the id
 * of one of the webhook's headers keeps that id; one without an id takes over a not yet reused
 * header of the same name (case-insensitive), or is new. Headers not listed are deleted.
 */
export function replaceHeaders(
  current: TWebhookHeader[],
  input: TInlineHeader[],
  newId: () => string,
): TWebhookHeader[] {
  const known = new Set(current.map((h) => h.id));
  const errors = input.flatMap((h, i) =>
    h.id && !known.has(h.id)
      ? [{ field: `extra_headers[${i}].id`, message: 'This webhook has no extra header with this id.' }]
      : [],
  );
  if (errors.length > 0) throw new ValidationError('Invalid input.', errors);
  const claimed = new Set(input.flatMap((h) => (h.id ? [h.id] : [])));
  const result = input.map((h): TWebhookHeader => {
    let id = h.id;
    if (!id) {
      const same = current.find((c) => !claimed.has(c.id) && c.name.toLowerCase() === h.name.toLowerCase());
      id = same?.id ?? newId();
      claimed.add(id);
    }
    return { id, name: h.name, value: h.value, order: h.order ?? DEFAULT_HEADER_ORDER };
  });
  const ids = new Set<string>();
  for (const [i, h] of result.entries()) {
    if (ids.has(h.id)) {
      throw new ValidationError('Invalid input.', [
        { field: `extra_headers[${i}].id`, message: 'This header is listed twice.' },
      ]);
    }
    ids.add(h.id);
  }
  checkHeaderCount(result, 'extra_headers');
  return result;
}
