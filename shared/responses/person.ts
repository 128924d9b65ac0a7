import type { TPerson } from '#shared/domain/persons/person';
import type { TPersonResponse } from '#shared/schemas/responses/person';

/** A Person on the wire (spec "Person"). */
export function toPersonResponse(p: TPerson): TPersonResponse {
  return {
    id: p.id,
    name: p.name,
    metadata: p.metadata,
    is_user: p.isUser,
    channels: p.channels.map((c) => ({ id: c.id, kind: c.kind, email: c.email ?? '', phone: c.phone ?? '' })),
  };
}
