import type { TPasskey } from '#shared/domain/console/passkey';

/** A passkey as its owner's console lists it: never its key or credential id. */
export function passkeyResponse(p: TPasskey) {
  return {
    id: p.id,
    name: p.name,
    created: p.created,
    last_used: p.lastUsed ?? null,
    synced: p.backedUp,
  };
}
