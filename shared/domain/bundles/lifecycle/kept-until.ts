// Until when an ended bundle's documents (and the personal data in them) are kept: the one
// question erasure asks of retention, answered from the policy the bundle carries.
import type { TBundle } from '../bundle';
import { documentsKeptUntil } from '../retention';

/** An ISO time, or null: no retention policy applies (or a legal hold), so it is kept until deleted. */
export type TKeptUntil = string | null;

export function keptUntil(bundle: TBundle): TKeptUntil {
  return documentsKeptUntil(bundle);
}
