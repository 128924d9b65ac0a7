// Until when an ended bundle (and the personal data in it) is kept. The one question erasure and
// export ask of retention; retention policies answer it here once they exist.
import type { TBundle } from '../bundle';

/** An ISO time, or null: no retention policy applies, so the bundle is kept until deleted by hand. */
export type TKeptUntil = string | null;

export function keptUntil(_bundle: Pick<TBundle, 'accountId' | 'id' | 'status'>): TKeptUntil {
  return null;
}
