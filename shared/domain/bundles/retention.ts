// Retention by policy, on the bundle alone: when it ended, which parts of its documents the
// account's policy has made due, the legal hold that stops it, and what a deleted part answers.
// Pure rules, so the bundle store derives the `by-due` index from them in the same write as every
// change (scheduler/schedule.ts), and a hold and a deletion decide on the same bundle version.
import { ConflictError, ContentDeletedError } from '../errors';
import { evidenceObjectPrefixes } from '../evidence/evidence-files';
import { signingObjectPrefix } from '../signing/signing-record';
import type { TActor } from './actor';
import { event } from './audit-event';
import type { TBundle, TBundleRetention, TRetentionPart } from './bundle';
import { batchObjectsPrefix } from './document-sharing';
import { codeOf } from './event-kinds';
import { BUNDLE, isFinished } from './lifecycle/status';
import { originalsPrefix } from './object-keys';

const DAY_MS = 86_400_000;

/**
 * Where bundles made before every object moved under its account kept their evidence and
 * signers' images (keyed by the bundle alone). Their records still name these keys, so retention,
 * exports and imports keep reaching them; nothing is written there any more.
 */
const LEGACY_PREFIXES: Record<TRetentionPart, (bundleId: string) => string[]> = {
  originals: (id) => [`interim/${id}/`],
  finals: (id) => [`final/${id}/`, `coe/${id}/`],
  images: (id) => [`signing/${id}/`],
};

export const RETENTION_PARTS: readonly TRetentionPart[] = ['originals', 'finals', 'images'];

/** The events that end a bundle: complete, cancelled (a decline too), expired, failed. */
const ENDING: ReadonlySet<string> = new Set(
  (['completed', 'cancelled', 'expired', 'failed'] as const).map(codeOf),
);

/**
 * When the bundle ended (epoch ms), undefined while it has not. A complete bundle counts from its
 * completion once its final documents are made: until then the evidence job still reads the
 * originals and the signers' images.
 */
export function endedAt(b: TBundle): number | undefined {
  if (!isFinished(b.status)) return undefined;
  if (b.status === BUNDLE.complete) {
    return b.docsReady && b.completedAt ? Date.parse(b.completedAt) : undefined;
  }
  const last = b.events.findLast((e) => ENDING.has(e.kind));
  return Date.parse(last?.timestamp ?? b.created);
}

/** Each part the policy deletes and not deleted yet, with when it falls due (epoch ms). */
function pending(b: TBundle): { part: TRetentionPart; at: number }[] {
  const r = b.retention;
  const ended = endedAt(b);
  if (!r?.policy || r.hold || ended === undefined) return [];
  return RETENTION_PARTS.flatMap((part) => {
    const days = r.policy?.[part];
    return days === undefined || r.deleted?.[part] ? [] : [{ part, at: ended + days * DAY_MS }];
  });
}

/**
 * Until when the policy keeps the bundle's documents (ISO time): when its last part is (or was)
 * deleted. Null while any part is kept for ever: no policy for it, a legal hold, or not ended yet.
 * The bundle itself, with its events and hashes, stays as a tombstone after that.
 */
export function documentsKeptUntil(b: TBundle): string | null {
  const r = b.retention;
  const ended = endedAt(b);
  if (!r?.policy || r.hold || ended === undefined) return null;
  let last = 0;
  for (const part of RETENTION_PARTS) {
    const done = r.deleted?.[part];
    const days = r.policy[part];
    if (done) last = Math.max(last, Date.parse(done));
    else if (days === undefined) return null;
    else last = Math.max(last, ended + days * DAY_MS);
  }
  return new Date(last).toISOString();
}

/**
 * When the scheduler next has retention work for the bundle (epoch ms): a deletion under way
 * at once (a run that stopped half-way), else the first part due; none under a legal hold.
 */
export function retentionDueAt(b: TBundle): number | undefined {
  const deleting = b.retention?.deleting;
  if (deleting) return Date.parse(deleting.at);
  const times = pending(b).map((p) => p.at);
  return times.length > 0 ? Math.min(...times) : undefined;
}

/**
 * The bundle marked "deleting" the parts due at `now`, or the very object when none is (or a
 * deletion is under way already, which the scheduler finishes). The hold is checked here, in
 * the write that marks, so a hold set at the same time wins or loses that one write.
 */
export function markDeletion(b: TBundle, now: Date): TBundle {
  if (b.retention?.deleting) return b;
  const parts = pending(b)
    .filter((p) => p.at <= now.getTime())
    .map((p) => p.part);
  if (parts.length === 0) return b;
  return { ...b, retention: { ...b.retention, deleting: { at: now.toISOString(), parts } } };
}

/** The deletion marked, recorded as done: each part's date and the audit event. */
export function finishDeletion(b: TBundle, now: Date, by: TActor): TBundle {
  const { deleting, ...rest } = b.retention ?? {};
  if (!deleting) return b;
  const at = now.toISOString();
  const deleted = { ...rest.deleted, ...Object.fromEntries(deleting.parts.map((p) => [p, at])) };
  return {
    ...b,
    retention: { ...rest, deleted },
    events: [...b.events, event('contentDeleted', at, by, undefined, deleting.parts.join(', '))],
  };
}

/** The bundle under a legal hold; the very object when it is held already. */
export function setHold(b: TBundle, now: Date, by: TActor): TBundle {
  if (b.retention?.deleting) {
    throw new ConflictError(
      "The retention policy is deleting this bundle's documents right now: a legal hold can no longer stop it.",
    );
  }
  if (b.retention?.hold) return b;
  const at = now.toISOString();
  return {
    ...b,
    retention: { ...b.retention, hold: { at, actor: by } },
    events: [...b.events, event('legalHoldSet', at, by)],
  };
}

/** The bundle with its legal hold released; the very object when it has none. */
export function releaseHold(b: TBundle, now: Date, by: TActor): TBundle {
  const { hold, ...rest } = b.retention ?? {};
  if (!hold) return b;
  const at = now.toISOString();
  return { ...b, retention: rest, events: [...b.events, event('legalHoldReleased', at, by)] };
}

/** When the policy deleted this part of the bundle's documents, if it did. */
export function deletedAt(b: Pick<TBundle, 'retention'>, part: TRetentionPart): string | undefined {
  return b.retention?.deleted?.[part];
}

/** Refuses with 410 `gone` to serve a part the policy deleted. */
export function assertKept(b: Pick<TBundle, 'retention'>, part: TRetentionPart): void {
  const at = deletedAt(b, part);
  if (at) throw new ContentDeletedError(at);
}

/** The documents-bucket prefixes under which each part of the bundle's files lives. */
export function retentionPrefixes(b: Pick<TBundle, 'accountId' | 'id'>, part: TRetentionPart): string[] {
  return [...currentPrefixes(b, part), ...LEGACY_PREFIXES[part](b.id)];
}

function currentPrefixes({ accountId, id }: Pick<TBundle, 'accountId' | 'id'>, part: TRetentionPart) {
  const evidence = evidenceObjectPrefixes;
  switch (part) {
    case 'originals':
      return [originalsPrefix(accountId, id), evidence.interim(accountId, id)];
    case 'finals':
      return [evidence.final(accountId, id), evidence.certificate(accountId, id)];
    case 'images':
      return [signingObjectPrefix(accountId, id)];
  }
}

/** The policy a new bundle carries: the account's, when it has one. */
export function retentionOf(policy: TBundleRetention['policy']): Pick<TBundle, 'retention'> {
  return policy && Object.keys(policy).length > 0 ? { retention: { policy } } : {};
}

/**
 * Every object key a retention deletion may touch, as IAM patterns (a `*` for each id): the one grant
 * to delete (the scheduler's, infra/constructs/) reaches these and nothing else of the bucket.
 */
export function retentionKeyPatterns(): string[] {
  return [
    ...RETENTION_PARTS.flatMap((p) => retentionPrefixes({ accountId: '*', id: '*' }, p)),
    // A bulk batch's own objects, once its last bundle's originals go (bulk/erase-batch-documents.ts).
    batchObjectsPrefix('*', '*'),
  ].map((k) => `${k}*`);
}
