import type { TClock, TIds } from '../../ports/system';
import type { TWebhookStore } from '../../ports/webhooks';
import { ZWebhookWriteSchema } from '../../schemas/webhook';
import { parseInput } from '../parse-input';
import { retryOnConflict } from '../retry-on-conflict';
import { getWebhook } from './get-webhook';
import { replaceHeaders } from './merge-headers';
import { type TWebhook, withEnabled } from './webhook';

/** PUT: everything is replaced as given; defaults for what is left out, and no headers if none are listed. */
export async function replaceWebhook(
  deps: { webhooks: TWebhookStore; clock: TClock; ids: TIds },
  accountId: string,
  id: string,
  body: unknown,
): Promise<TWebhook> {
  const input = parseInput(ZWebhookWriteSchema, body);
  return retryOnConflict(async () => {
    const current = await getWebhook(deps, accountId, id);
    const next: TWebhook = withEnabled(current, {
      ...current,
      url: input.url,
      enabled: input.enabled ?? true,
      json: input.json ?? true,
      eventTypes: input.event_types,
      extraHeaders: replaceHeaders(current.extraHeaders, input.extra_headers ?? [], () => deps.ids.uuid()),
      updated: deps.clock.now().toISOString(),
      version: current.version + 1,
    });
    await deps.webhooks.save(next, current);
    return next;
  });
}
