import type { TClock } from '../ports/system';

/**
 * What a function instance keeps of a session's signer between the session's calls: the context
 * the last call that read everything (the bundle, its documents, every record) ended with. A
 * finish starts from it instead of reading it all again: its one write is conditional on the
 * bundle's and the record's versions, which is the check that nothing moved on meanwhile (a
 * finish checks the signer's own values and those of signers who finished, whose records their
 * consent froze and whose finishing changed the bundle). Keyed by the session's hash; `T` is
 * the signer's context (TSignerContext, which names this store: generic, so neither file needs
 * the other).
 */
export interface TKeptSigners<T> {
  keep(sessionHash: string, ctx: T): void;
  /** The context kept for the session, taken (a second call finds none), if not too old. */
  take(sessionHash: string): T | undefined;
  forget(sessionHash: string): void;
}

/** Contexts one instance keeps at most (the oldest forgotten first): a context holds the documents' fields. */
const KEPT = 100;
/** How long a context is kept: a signer looks the document over once more before finishing. */
const KEPT_MS = 10 * 60_000;

export function keptSigners<T>(clock: TClock): TKeptSigners<T> {
  const kept = new Map<string, { ctx: T; until: number }>();
  return {
    keep(sessionHash, ctx) {
      kept.delete(sessionHash);
      kept.set(sessionHash, { ctx, until: clock.now().getTime() + KEPT_MS });
      if (kept.size > KEPT) kept.delete(kept.keys().next().value!);
    },
    take(sessionHash) {
      const found = kept.get(sessionHash);
      kept.delete(sessionHash);
      return found && found.until > clock.now().getTime() ? found.ctx : undefined;
    },
    forget: (sessionHash) => void kept.delete(sessionHash),
  };
}
