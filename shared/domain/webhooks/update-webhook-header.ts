import { ZWebhookHeaderPatchSchema, ZWebhookHeaderWriteSchema } from '#shared/schemas/webhook';
import { ValidationError } from '../errors';
import { parseInput } from '../parse-input';
import type { TClock } from '../ports/system';
import type { TWebhookStore } from '../ports/webhooks';
import { retryOnConflict } from '../retry-on-conflict';
import { getWebhookHeader } from './get-webhook-header';
import { DEFAULT_HEADER_ORDER } from './merge-headers';
import type { TWebhook, TWebhookHeader } from './webhook';

type TDeps = { webhooks: TWebhookStore; clock: TClock };

/**
 * A header stays with its webhook: moving it would write two webhooks, which cannot be done
 * atomically here. Naming its own webhook (any case) is fine.
 */
function checkSameWebhook(webhook: TWebhook, given: string | undefined): void {
  if (given !== undefined && given.toLowerCase() !== webhook.id) {
    throw new ValidationError('Invalid input.', [
      {
        field: 'webhook',
        message: 'An extra header cannot move to another webhook; delete it and create it there.',
      },
    ]);
  }
}

async function changeHeader(
  deps: TDeps,
  accountId: string,
  id: string,
  change: (webhook: TWebhook, header: TWebhookHeader) => TWebhookHeader,
): Promise<{ webhook: TWebhook; header: TWebhookHeader }> {
  return retryOnConflict(async () => {
    const { webhook: current, header } = await getWebhookHeader(deps, accountId, id);
    const changed = change(current, header);
    const next: TWebhook = {
      ...current,
      extraHeaders: current.extraHeaders.map((h) => (h.id === header.id ? changed : h)),
      updated: deps.clock.now().toISOString(),
      version: current.version + 1,
    };
    await deps.webhooks.save(next, current);
    return { webhook: next, header: changed };
  });
}

/** PUT: name and value as given, order as given or the default; the header keeps its place. */
export async function replaceWebhookHeader(deps: TDeps, accountId: string, id: string, body: unknown) {
  const input = parseInput(ZWebhookHeaderWriteSchema, body);
  return changeHeader(deps, accountId, id, (webhook, header) => {
    checkSameWebhook(webhook, input.webhook);
    return {
      id: header.id,
      name: input.name,
      value: input.value,
      order: input.order ?? DEFAULT_HEADER_ORDER,
    };
  });
}

/** PATCH: fields given replace the stored ones. */
export async function updateWebhookHeader(deps: TDeps, accountId: string, id: string, body: unknown) {
  const input = parseInput(ZWebhookHeaderPatchSchema, body);
  return changeHeader(deps, accountId, id, (webhook, header) => {
    checkSameWebhook(webhook, input.webhook);
    return {
      id: header.id,
      name: input.name ?? header.name,
      value: input.value ?? header.value,
      order: input.order ?? header.order,
    };
  });
}
