// The webhook event types the form offers, apart from the calls so a unit test can hold them to
// the API's own list without loading the browser code.

/**
 * The event types a webhook may subscribe to, as the API's vocabulary lists them
 * (`SUBSCRIBABLE_EVENT_TYPES`; test/unit/console-manage.test.ts keeps the two the same). The
 * browser code does not import the service's schemas, so the list is repeated here.
 */
export const WEBHOOK_EVENT_TYPES = [
  'bundle_sent',
  'bundle_complete',
  'bundle_docs_ready',
  'bundle_error',
  'bundle_cancelled',
  'packet_viewed',
  'packet_complete',
  'packet_declined',
  'packet_reassigned',
  'bundle_signer_reassigned',
  'doc_template_created',
  'doc_template_updated',
  'doc_template_deleted',
  'bulk_completed',
] as const;
