// The shapes of the ids this service hands out, by the kind of thing they name. An id of another
// shape names nothing, so the router answers 404 before any store is asked: a store would
// otherwise be asked for keys no item can have (1 KB of them fails DynamoDB's key size limit).

/** Bundles and packets: 10 base62 characters (shared/adapters/system.ts, randomSlug). */
const SLUG = /^[A-Za-z0-9]{10}$/;

/**
 * Persons, webhooks and their headers, webhook log entries, deliveries, document templates:
 * UUIDs, random (v4) or derived (the v8 ids of webhook events); any case, as clients may change it.
 */
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** Envelope templates: `T-` and 8 base62 characters (create-envelope-template.ts). */
const ENVELOPE_TEMPLATE = /^T-[A-Za-z0-9]{8}$/;

export const ID_FORMATS = {
  slug: SLUG,
  uuid: UUID,
  'envelope-template': ENVELOPE_TEMPLATE,
} as const satisfies Record<string, RegExp>;

export type TIdKind = keyof typeof ID_FORMATS;

export const isIdKind = (kind: string): kind is TIdKind => Object.hasOwn(ID_FORMATS, kind);
