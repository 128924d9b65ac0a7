// The words of the evidence pages in one language: the catalogs' `evidence` messages
// (shared/i18n), dates in that language's way on a UTC clock, and the page's direction.
import type { TFunction } from 'i18next';
import { translator } from '../i18n/catalogs';
import { directionOf, resolveLanguage, type TLanguage } from '../i18n/languages';
import type { TDirection } from './bidi';
import { formatUtc } from './text';

export interface TEvidenceWords {
  language: TLanguage;
  direction: TDirection;
  t: TFunction;
  /** A time in UTC, with the zone named (or not, in a column headed "(UTC)"). */
  time(iso: string | undefined, options?: { zone?: boolean }): string;
  /** Who did something: a signer's name as it is, the two roles the audit trail names in words. */
  actor(actor: string | undefined): string;
  /** A word the signing record or the certificate's input records (a step, a method, a result). */
  recorded(word: string): string;
  pageOf(page: number, pages: number): string;
}

/**
 * The words the service records in English as identifiers (signing steps: saveStep's actions;
 * authentication methods and results: certificate-input.ts), and their messages. A word not
 * listed (a newer step) is printed as recorded.
 */
const RECORDED: Record<string, string> = {
  'embedded signing link': 'embedLink',
  'signing link by email': 'linkByEmail',
  'signing link by sms': 'linkBySms',
  'sms code': 'smsCode',
  selfie: 'selfie',
  'identity document': 'idDocument',
  opened: 'opened',
  passed: 'passed',
  'not passed': 'notPassed',
  collected: 'collected',
  'not taken': 'notTaken',
  'not provided': 'notProvided',
  verified: 'verified',
  rejected: 'rejected',
  'opened embedded': 'openedEmbedded',
  'opened link': 'openedLink',
  'sms code sent': 'smsSent',
  'sms code passed': 'smsPassed',
  'sms code wrong': 'smsWrong',
  'selfie taken': 'selfieTaken',
  'id check collected': 'idCollected',
  'id check verified': 'idVerified',
  'id check rejected': 'idRejected',
  'saved values': 'savedValues',
  'uploaded attachment': 'uploadedAttachment',
  'consented and signed': 'consentedSigned',
  declined: 'declined',
  language: 'language',
  "kiosk link on the host's device": 'kioskLink',
  'in person': 'inPerson',
  hosted: 'hosted',
  'opened in person': 'openedInPerson',
  'handed on': 'handedOn',
};

export function evidenceWords(tag: string | undefined): TEvidenceWords {
  const language = resolveLanguage(tag);
  const t = translator(language);
  return {
    language,
    direction: directionOf(language),
    t,
    time: (iso, { zone = true } = {}) => formatUtc(iso, { zone, language }),
    actor: (actor) =>
      actor === 'sender' || actor === 'service' ? t(`evidence.common.${actor}`) : (actor ?? '—'),
    pageOf: (page, pages) => t('evidence.common.page', { page, pages }),
    recorded: (word) => {
      const key = Object.hasOwn(RECORDED, word) ? RECORDED[word] : undefined;
      return key ? t(`evidence.recorded.${key}`) : word;
    },
  };
}
