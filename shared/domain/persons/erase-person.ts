// Erasure of a person: every Person of the account reached at an email or phone goes, with its
// channels (and so its lookup terms). Bundles that name them are not changed: an unfinished one is
// the sender's to cancel or change, so it is listed; an ended one is a signed record, kept until its
// retention ends, and listed with that date.
import { createHash } from 'node:crypto';
import { isFinished } from '../bundles/lifecycle/status';
import { documentsKeptUntil } from '../bundles/retention';
import { ValidationError } from '../errors';
import { MAX_PER_PAGE } from '../paging';
import type { TBundleStore } from '../ports/bundles';
import { normalizeEmail, normalizePhone } from '../ports/contact-keys';
import type { TPersonStore } from '../ports/persons';
import { retryOnConflict } from '../retry-on-conflict';
import type { TPerson } from './person';

export interface TEraseTarget {
  email?: string;
  phone?: string;
}

export interface TErasureReport {
  /** SHA-256 of the normalized address: what logs and audit records may keep instead of it. */
  addressHash: string;
  personsRemoved: string[];
  /**
   * Drafts and sent bundles not ended: the sender cancels them or changes the signer. `status`
   * null: the bundle's create was under way and past its check of the Person (it is written).
   */
  bundlesToActOn: { id: string; status: string | null }[];
  /** Ended bundles, kept as signed records; `keptUntil` null: no retention policy, kept until deleted. */
  bundlesKept: { id: string; status: string; keptUntil: string | null }[];
}

/** The address as the stores compare it, and its hash (for records that must not hold it). */
export function erasureAddress(target: TEraseTarget): { filter: TEraseTarget; hash: string } {
  const email = target.email?.trim();
  const phone = target.phone?.trim();
  if (!email === !phone) {
    throw new ValidationError('Give either an email or a phone number, not both.', [
      { field: 'non_field_errors', message: 'Give either an email or a phone number, not both.' },
    ]);
  }
  const key = email ? `em:${normalizeEmail(email)}` : `mp:${normalizePhone(phone ?? '')}`;
  const hash = createHash('sha256').update(key).digest('hex');
  return { filter: email ? { email } : { phone }, hash };
}

export async function erasePerson(
  deps: { store: TPersonStore; bundles: TBundleStore },
  accountId: string,
  target: TEraseTarget,
): Promise<TErasureReport> {
  const { filter, hash } = erasureAddress(target);
  const persons: TPerson[] = [];
  // Always page 1: each Person found is deleted below, so the next call finds the rest.
  for (;;) {
    const { items } = await deps.store.list(accountId, filter, { page: 1, perPage: MAX_PER_PAGE });
    const fresh = items.filter((p) => !persons.some((q) => q.id === p.id));
    if (fresh.length === 0) break;
    for (const person of fresh) {
      // The Person may change meanwhile (a channel added): delete the current version.
      await retryOnConflict(async () => {
        const current = await deps.store.get(accountId, person.id);
        if (current) await deps.store.delete(current);
      });
      persons.push(person);
    }
  }
  // Links are written before a bundle names a Person, and a create checks its Persons are still
  // there after writing them, so reading the links after the deletes finds every bundle created
  // meanwhile with one of these Persons (the race: docs/personal-data.md).
  const report: TErasureReport = {
    addressHash: hash,
    personsRemoved: [],
    bundlesToActOn: [],
    bundlesKept: [],
  };
  const seen = new Set<string>();
  for (const person of persons) {
    report.personsRemoved.push(person.id);
    for (const bundleId of await deps.bundles.bundlesOfPerson(accountId, person.id)) {
      if (seen.has(bundleId)) continue;
      seen.add(bundleId);
      const bundle = await deps.bundles.get(accountId, bundleId);
      if (!bundle) {
        // A create under way (or one that died): withdrawn, it fails; confirmed, it is written.
        if (!(await deps.bundles.withdrawCreation(accountId, bundleId))) {
          const written = await deps.bundles.get(accountId, bundleId);
          report.bundlesToActOn.push({ id: bundleId, status: written?.status ?? null });
        }
        continue;
      }
      if (isFinished(bundle.status)) {
        report.bundlesKept.push({
          id: bundle.id,
          status: bundle.status,
          keptUntil: documentsKeptUntil(bundle),
        });
      } else report.bundlesToActOn.push({ id: bundle.id, status: bundle.status });
    }
  }
  return report;
}
