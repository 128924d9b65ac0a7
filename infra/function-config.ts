// What each function is told, declared once: the parts of its configuration (shared/config.ts)
// the stack sets in its environment (constructs/functions.ts, api.ts) and the local runtime hands
// it (infra/local/function-config.ts). A function the stack tells nothing of a part gets none
// locally either, so code that reads a part its function lacks fails in the tests, not on AWS;
// test/infra/template-wiring.test.ts compares each function's variables with this both ways.
import type { TConfig } from '#shared/config';
import type { TLambdaName } from './bundling';
import type { QUEUES } from './queues';

/**
 * The configuration's keys that some functions get and others not (each queue is a part of its
 * own too, below). Every function also gets the stage, log level, table, bucket and documents
 * key; the stand-ins' endpoints, credentials and the tests' knobs (retry scales, fetch rules) are
 * the local machine's own.
 */
export const CONFIG_KEYS = [
  'usagePlanId',
  'publicBaseUrl',
  'viewerAddressHeader',
  'apiKeyCacheSeconds',
  'secrets',
  'mail',
  'copyLinkDays',
  'payments',
  'seal',
  'timestamps',
  'bulkRowsPerSecond',
] as const satisfies readonly (keyof TConfig)[];

/** A part of the configuration that some functions get and others not. */
export type TConfigPart = (typeof CONFIG_KEYS)[number] | `queues.${keyof typeof QUEUES}`;

/** What an endpoint behind API Gateway is told: its usage plan, its links' base, the caller's address. */
const ENDPOINT = ['usagePlanId', 'publicBaseUrl', 'viewerAddressHeader'] as const;
/**
 * The queues a bundle change's outbox is published onto: only by the functions that publish
 * outboxes (the relay and the sweeper). A function that changes a bundle writes its outbox, nothing more.
 */
const PUBLISH = ['queues.webhookDeliveries', 'queues.notifications', 'queues.documentJobs'] as const;

/**
 * Each function's parts. `timestamps` only where the stage names timestamp authorities (on AWS
 * none by default; locally the TSA stand-in's).
 */
export const FUNCTION_CONFIG: Record<TLambdaName, readonly TConfigPart[]> = {
  authorizer: ['apiKeyCacheSeconds'],
  persons: [...ENDPOINT],
  // Accounts' exports are queued for the document worker.
  account: [...ENDPOINT, 'queues.documentJobs'],
  bundles: [...ENDPOINT, 'queues.bulkJobs'],
  packets: [...ENDPOINT],
  templates: [...ENDPOINT, 'queues.webhookDeliveries'],
  webhooks: [...ENDPOINT, 'secrets', 'queues.webhookDeliveries'],
  'envelope-templates': [...ENDPOINT],
  // A template saved at /prepare fires doc_template_updated straight to the deliveries queue.
  'public-pages': [...ENDPOINT, 'queues.webhookDeliveries', 'payments'],
  mcp: [...ENDPOINT],
  console: [...ENDPOINT, 'secrets', 'mail', 'queues.notifications'],
  'webhook-dispatcher': ['secrets', 'queues.webhookDeliveries'],
  'outbox-sweeper': [...PUBLISH],
  'outbox-relay': [...PUBLISH],
  scheduler: [],
  // A batch's bulk_completed event goes straight to the deliveries queue (no bundle outbox).
  'bulk-worker': ['queues.webhookDeliveries', 'queues.bulkJobs', 'bulkRowsPerSecond'],
  'notifications-worker': ['publicBaseUrl', 'mail', 'copyLinkDays', 'queues.notifications'],
  // Its own queue, whose failed jobs it puts off.
  'document-worker': ['queues.documentJobs', 'seal', 'timestamps'],
};
