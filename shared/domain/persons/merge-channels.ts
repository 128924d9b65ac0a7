import type { TChannelInput } from '#shared/schemas/person';
import { PERSON_LIMITS } from '#shared/schemas/person';
import { type TFieldError, ValidationError } from '../errors';
import { channelIdentity, type TChannel } from './person';

function fromInput(id: string, c: TChannelInput): TChannel {
  return c.email
    ? { id, kind: 'em', email: c.email.trim() }
    : { id, kind: 'mp', phone: (c.phone ?? '').trim() };
}

/**
 * One channel per email or phone: later duplicates are dropped, the first keeps its id. The
 * limit applies to the result, since PATCHes add up.
 */
function dedupe(channels: TChannel[]): TChannel[] {
  const seen = new Set<string>();
  const result = channels.filter((c) => {
    const key = channelIdentity(c);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  if (result.length > PERSON_LIMITS.channels) {
    throw new ValidationError('Invalid input.', [
      { field: 'channels', message: `A person has at most ${PERSON_LIMITS.channels} channels.` },
    ]);
  }
  return result;
}

function unknownIds(current: TChannel[], input: TChannelInput[]): TFieldError[] {
  const ids = new Set(current.map((c) => c.id));
  return input.flatMap((c, i) =>
    c.id && !ids.has(c.id)
      ? [{ field: `channels[${i}].id`, message: 'This person has no channel with this id.' }]
      : [],
  );
}

/**
 * PUT: the request lists every channel the person keeps. A channel with an id updates that
 * channel; one without an id reuses an existing channel with the same email or phone, or is new;
 * existing channels not listed are deleted.
 */
export function replaceChannels(
  current: TChannel[],
  input: TChannelInput[],
  newId: () => string,
): TChannel[] {
  const errors = unknownIds(current, input);
  if (errors.length > 0) throw new ValidationError('Invalid input.', errors);
  const byIdentity = new Map(current.map((c) => [channelIdentity(c), c]));
  return dedupe(
    input.map((c) => {
      if (c.id) return fromInput(c.id, c);
      const same = byIdentity.get(channelIdentity(c));
      return same ?? fromInput(newId(), c);
    }),
  );
}

/**
 * PATCH: a channel with an id updates that channel; one without an id is added unless the
 * person already has its email or phone, in which case nothing changes. Nothing is deleted.
 */
export function patchChannels(current: TChannel[], input: TChannelInput[], newId: () => string): TChannel[] {
  const errors = unknownIds(current, input);
  if (errors.length > 0) throw new ValidationError('Invalid input.', errors);
  let result = [...current];
  for (const c of input) {
    if (c.id) {
      result = result.map((existing) => (existing.id === c.id ? fromInput(c.id!, c) : existing));
    } else if (!result.some((existing) => channelIdentity(existing) === channelIdentity(c))) {
      result.push(fromInput(newId(), c));
    }
  }
  return dedupe(result);
}
