import { listens, logAndQueue } from '../outbox/publish-events';
import type { TQueue } from '../ports/queue';
import type { TClock } from '../ports/system';
import type { TWebhookEventStore, TWebhookStore } from '../ports/webhooks';
import { type TWebhookEvent, webhookEventId } from '../webhooks/webhook-event';
import type { TDocTemplate } from './doc-template';

export type TTemplateEventType = 'doc_template_created' | 'doc_template_updated' | 'doc_template_deleted';

export interface TTemplateEventDeps {
  webhooks: TWebhookStore;
  webhookEvents: TWebhookEventStore;
  queue: TQueue;
  clock: TClock;
}

/**
 * Fires a document template event to every webhook subscribed to it, after the template's write:
 * a WebhookEvent logged and a delivery queued per webhook, as bundle events are. The event id is
 * derived from the template, its version, the type and the webhook, so a repeat is one event.
 * Best effort: there is no outbox for templates, so an event lost to a crash here is not retried.
 */
export async function publishTemplateEvent(
  deps: TTemplateEventDeps,
  template: TDocTemplate,
  type: TTemplateEventType,
): Promise<void> {
  const hooks = (await deps.webhooks.all(template.accountId)).filter((w) => listens(w, type));
  const now = deps.clock.now().toISOString();
  await Promise.all(
    hooks.map((hook) => {
      const event: TWebhookEvent = {
        id: webhookEventId(`template:${template.id}:${type}`, template.version, hook.id),
        accountId: template.accountId,
        webhookId: hook.id,
        type,
        created: now,
        eventDate: type === 'doc_template_deleted' ? now : template.updated,
        payload: JSON.stringify({ template_id: template.id }),
        status: 0,
        success: false,
        deliveries: [],
        queued: false,
      };
      return logAndQueue(deps, event, hook.enabled);
    }),
  );
}
