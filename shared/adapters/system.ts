import { randomUUID } from 'node:crypto';
import type { TClock, TIds } from '#shared/domain/ports/system';
import { randomBase62 } from '#shared/random';

export const systemClock: TClock = { now: () => new Date() };
/** Bundle and packet ids: 10 base62 characters, about 59 bits, unguessable. */
export const randomSlug = () => randomBase62(10);

export const randomIds: TIds = { uuid: () => randomUUID(), slug: () => randomSlug() };
