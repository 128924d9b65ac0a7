// A function instance's memory of sessions' signers between their calls (TKeptSigners, in the
// signing ports): what the public pages' finish starts from after the session saved its values.
import type { TKeptSigners } from '#shared/domain/ports/signing';
import type { TClock } from '#shared/domain/ports/system';
import { remember } from './remember';

/** Contexts one instance keeps at most (the oldest forgotten first): a context holds the documents' fields. */
const KEPT = 100;
/** How long a context is kept: a signer looks the document over once more before finishing. */
const KEPT_MS = 10 * 60_000;

export function keptSigners<T>(clock: TClock): TKeptSigners<T> {
  const kept = new Map<string, { ctx: T; until: number }>();
  return {
    keep: (sessionHash, ctx) =>
      remember(kept, sessionHash, { ctx, until: clock.now().getTime() + KEPT_MS }, KEPT),
    take(sessionHash) {
      const found = kept.get(sessionHash);
      kept.delete(sessionHash);
      return found && found.until > clock.now().getTime() ? found.ctx : undefined;
    },
    forget: (sessionHash) => void kept.delete(sessionHash),
  };
}
