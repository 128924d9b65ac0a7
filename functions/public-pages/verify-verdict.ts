// The verify page's one plain verdict, derived from the public check's answer (check-file.ts):
// what a reader who knows nothing of seals or certificates needs first. The detailed facts and
// checks stay on the page, folded beneath it.

import type { TPublicCheck } from '#shared/domain/evidence/check-file';
import { translator } from '#shared/i18n/catalogs';
import type { TLanguage } from '#shared/i18n/languages';

/**
 * - genuine: this exact file is one the service sealed (its SHA-256 is on record) and the audit
 *   trail behind it still verifies. The hash proves the bytes are the ones sealed, so a check of
 *   the file that fails (shown in the details) does not make it less genuine;
 * - changed: the file carries a signature whose signed bytes were changed, or bytes were added
 *   after it that no later signature covers;
 * - not_ours: a readable PDF that is not a file the service sealed (no signature, or another's);
 * - cannot_tell: the file could not be read as a PDF, one of its signatures could not be read,
 *   the service's record behind it does not verify, or the check itself could not be made.
 */
export type TPlainVerdict = 'genuine' | 'changed' | 'not_ours' | 'cannot_tell';

/** Checks (report ids) whose failure means the signed content was altered after signing. */
const ALTERED = /^signature-\d+\.(digest|coverage)$/;
/** Checks whose failure means a signature could not be read at all. */
const UNREADABLE = /^signature-\d+\.readable$/;

export function plainVerdict(r: TPublicCheck): TPlainVerdict {
  if (r.known) return r.audit_trail_intact === true ? 'genuine' : 'cannot_tell';
  if (!r.checks) return 'cannot_tell';
  const failed = r.checks.checks.filter((c) => c.status === 'fail').map((c) => c.id);
  if (failed.some((id) => ALTERED.test(id))) return 'changed';
  if (failed.some((id) => UNREADABLE.test(id))) return 'cannot_tell';
  return 'not_ours';
}

/** The verdict in words: a short title, the sentence that explains it, and what to do next. */
export interface TVerdictWords {
  kind: TPlainVerdict;
  title: string;
  text: string;
  next?: string;
}

const TITLES: Record<TPlainVerdict, string> = {
  genuine: 'verify.verdict.genuine',
  changed: 'verify.verdict.changed',
  not_ours: 'verify.verdict.notOurs',
  cannot_tell: 'verify.verdict.cannotTell',
};

/** A symbol for each verdict, shown beside its title: the verdict never rests on colour alone. */
export const VERDICT_ICONS: Record<TPlainVerdict, string> = {
  genuine: '✓',
  changed: '✗',
  not_ours: '!',
  cannot_tell: '?',
};

export function verdictWords(r: TPublicCheck, lang: TLanguage): TVerdictWords {
  const t = translator(lang);
  const kind = plainVerdict(r);
  const title = t(TITLES[kind]);
  const certificate = r.kind === 'certificate';
  switch (kind) {
    case 'genuine':
      // Sealed here, its content since deleted by the account's retention policy: still genuine.
      if (r.content_deleted_at) {
        return {
          kind,
          title,
          text: t('retention.verify.deleted', { date: r.content_deleted_at.slice(0, 10) }),
        };
      }
      return { kind, title, text: t(certificate ? 'verify.okCertificate' : 'verify.okFinal') };
    case 'changed':
      return { kind, title, text: t('verify.verdict.changedText'), next: t('verify.checks.askSender') };
    case 'not_ours':
      return { kind, title, text: t('verify.unknown'), next: t('verify.verdict.notOursNext') };
    default:
      return r.known
        ? {
            kind,
            title,
            text: t(certificate ? 'verify.badCertificate' : 'verify.badFinal'),
            next: t('verify.checks.askSender'),
          }
        : {
            kind,
            title,
            text: t(r.checks ? 'verify.verdict.unreadableSeal' : 'verify.verdict.unreadableFile'),
            next: t('verify.verdict.unreadableNext'),
          };
  }
}

/** The check could not be made at all (no file, a file too large or too complex): why, in words. */
export function verdictOfError(message: string, lang: TLanguage): TVerdictWords {
  return { kind: 'cannot_tell', title: translator(lang)('verify.verdict.cannotTell'), text: message };
}
