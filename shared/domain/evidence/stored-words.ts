// What the service stores in English, and the catalog messages (`evidence.*`) the evidence pages
// say it with in their reader's language: the words of the signing record and the certificate's
// input (steps and the fixed words of their details, methods, results), and the audit events (by
// kind, with the fixed words of their details). The stored English stays as it is (the audit
// chain hashes the descriptions, and the evidence record keeps them); this reads it at render
// time. What it does not know (an older shape, a newer word) is printed as stored.
import type { TSaid, TWords } from '#shared/pdf/evidence-types';
import type { TBundleEvent, THandover, TPacket } from '../bundles/bundle';
import { codeOf, EVENT_KINDS, type TEventKind } from '../bundles/event-kinds';
import { identityLabel } from '../bundles/lifecycle/transitions';
import { GIVEN_DETAIL, LOCKED_DETAIL } from '../bundles/prefill';
import type { TSigningRecord, TSigningStep } from '../signing/signing-record';
import { legacyReminder } from './legacy-events';

/**
 * The words recorded as identifiers (signing steps: saveStep's actions; authentication methods
 * and results: certificate-input.ts), and their messages under `evidence.recorded`.
 */
const RECORDED: Record<string, string> = {
  'embedded signing link': 'embedLink',
  'signing link by email': 'linkByEmail',
  'signing link by sms': 'linkBySms',
  'signing link by phone': 'linkBySms',
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
  'not handed on': 'notHandedOn',
};

/** A word the service records, as its message (or as recorded, when it has none). */
export function recordedWords(word: string): TWords {
  const key = Object.hasOwn(RECORDED, word) ? RECORDED[word] : undefined;
  return key ? { key: `recorded.${key}` } : word;
}

/**
 * A step's detail as the evidence says it. Most are data (field keys, a file's path, a language
 * tag, a provider, a reason the signer typed): as stored. Two hold fixed words: the in-person
 * opening's `hosted by <host>` (open-session.ts), and the handover's `to <name>: <reason>`
 * (reassign-packet.ts), read by the packet's record of that handover or, for one the bundle
 * refused or still pending, the signer's record of it (the name or the reason may hold ": "
 * themselves). Another shape is printed as stored.
 */
export function stepDetailWords(
  step: Pick<TSigningStep, 'action' | 'at' | 'detail'>,
  packet?: TPacket,
  record?: Pick<TSigningRecord, 'handingOn' | 'handedBack'>,
): TWords {
  const detail = step.detail ?? '';
  if (step.action === 'opened in person') {
    const m = /^hosted by (.+)$/s.exec(detail);
    return m ? { key: 'details.hostedBy', values: { host: m[1]! } } : detail;
  }
  if (step.action === 'handed on') {
    const known = [
      ...(packet?.handovers ?? []),
      ...(record?.handedBack ?? []),
      ...(record?.handingOn ? [record.handingOn] : []),
    ];
    const h = known.find((x) => x.at === step.at && `to ${x.to.name}: ${x.reason}` === detail);
    return h ? { key: 'details.handedTo', values: { to: h.to.name, reason: h.reason } } : detail;
  }
  return detail;
}

const said = (key: string, values?: TSaid['values']): TSaid => ({
  key: `eventDetails.${key}`,
  ...(values ? { values } : {}),
});

/** What notifications write for a message: `email to j***@example.com`, `SMS to ******1234`. */
const MESSAGE = /^(email|SMS) to (\S+)/;
const messageTo = (channel: string, to: string) => said(channel === 'email' ? 'emailTo' : 'smsTo', { to });
const inBrackets = (text: TWords, detail: TWords) => said('inBrackets', { text, detail });

/** record-delivery-report.ts's words for what became of a message. */
const REPORTED: Record<string, string> = {
  bounced: 'bounced',
  'was marked as spam by the recipient': 'markedSpam',
  'was refused by the mail service': 'refusedByMail',
};

/** send-notification.ts's `why` of a failed attempt: the error's name, which attempt, whether it retries. */
function failureWords(why: string): TWords {
  const m = /^([\w.-]+); attempt (\d+) of (\d+)(, will retry)?$/.exec(why);
  if (!m) return why;
  return said(m[4] ? 'attemptRetry' : 'attempt', {
    error: m[1]!,
    attempt: Number(m[2]),
    attempts: Number(m[3]),
  });
}

/**
 * A detail as its kind writes it: the fixed words in it said in the catalogs, the data in it
 * (names, addresses, tags, references, reasons, error messages) as stored.
 */
function detailWords(kind: TEventKind, detail: string, e: TBundleEvent, packet: TPacket | undefined): TWords {
  switch (kind) {
    case 'reminderSent': {
      // Whether it was automatic is the actor's to say (legacy-events.ts for events without one);
      // the scheduler's words after the name are not repeated.
      const legacy = legacyReminder(detail);
      if (!e.actor) return legacy.automatic ? said('automatic', { name: legacy.name }) : detail;
      return e.actor.type === 'scheduler' ? said('automatic', { name: legacy.name }) : detail;
    }
    case 'packetUpdated':
      return detail === 'contact changed on the Person' ? said('contactFromPerson') : detail;
    case 'tagsChanged': {
      const m = /^(added|removed) (.*)$/s.exec(detail);
      return m ? said(m[1] === 'added' ? 'tagsAdded' : 'tagsRemoved', { tags: m[2]! }) : detail;
    }
    case 'inPerson': {
      const at = detail.indexOf(', hosted by ');
      if (at < 0) return detail;
      return said('hostedBy', { name: detail.slice(0, at), host: detail.slice(at + ', hosted by '.length) });
    }
    case 'reassigned': {
      // Names may hold " to " or ": " themselves: the packet's handover says which parts are which.
      // A sender's handover may give no reason (signing/hand-over-packet.ts): no ": " then.
      const moved = (x: THandover) => `${identityLabel(x.from)} to ${identityLabel(x.to)}`;
      const h = packet?.handovers?.find(
        (x) => x.at === e.timestamp && (x.reason ? `${moved(x)}: ${x.reason}` : moved(x)) === detail,
      );
      if (!h) return detail;
      const names = { from: identityLabel(h.from), to: identityLabel(h.to) };
      return h.reason
        ? said('handedOn', { ...names, reason: h.reason })
        : said('handedOnWithoutReason', names);
    }
    case 'docsReady': {
      const m = /^(\d+) document\(s\), (\d+) certificate\(s\)$/.exec(detail);
      if (!m) return detail;
      return said('finalFiles', {
        documents: said('documents', { count: Number(m[1]) }),
        certificates: said('certificates', { count: Number(m[2]) }),
      });
    }
    case 'messageFailed': {
      const m = new RegExp(`${MESSAGE.source} \\((.*)\\)$`, 's').exec(detail);
      return m ? inBrackets(messageTo(m[1]!, m[2]!), failureWords(m[3]!)) : detail;
    }
    case 'messageBounced': {
      const m = new RegExp(
        `${MESSAGE.source} (${Object.keys(REPORTED).join('|')})(?: \\((.*)\\))?$`,
        's',
      ).exec(detail);
      if (!m) return detail;
      const what = said(REPORTED[m[3]!]!, { message: messageTo(m[1]!, m[2]!) });
      return m[4] === undefined ? what : inBrackets(what, m[4]);
    }
    case 'paymentFailed':
    case 'paymentRefundFailed': {
      const m = /^refused \((.*)\)$/s.exec(detail);
      return m ? inBrackets(said('refused'), m[1]!) : detail;
    }
    case 'created': {
      // prefill.ts: the fields whose values the sender gave (data, read-only), said as such so
      // nobody reads them as typed by a signer. Its words are the catalogs' `prefill` section.
      if (!detail.startsWith(GIVEN_DETAIL)) return detail;
      const [given, locked] = detail.slice(GIVEN_DETAIL.length).split(LOCKED_DETAIL);
      const words: TSaid = { key: '/prefill.valuesFromSender', values: { fields: given! } };
      return locked === undefined
        ? words
        : { key: '/prefill.withReadOnly', values: { given: words, fields: locked } };
    }
    default:
      return detail;
  }
}

const KINDS = Object.entries(EVENT_KINDS) as [TEventKind, (typeof EVENT_KINDS)[TEventKind]][];

/**
 * An audit event as the evidence says it: its kind's message (a kind's variant, as `pr` in
 * person, has its own, told apart by the words it was stored with), then its detail. An event
 * of a kind not known, or whose description does not start with its kind's text, is printed as
 * stored.
 */
export function eventWords(e: TBundleEvent, packet?: TPacket): TWords {
  for (const [kind, k] of KINDS) {
    if (codeOf(kind) !== e.kind) continue;
    const event: TSaid = { key: `events.${kind}` };
    if (e.description === k.text) return event;
    const prefix = `${k.text}: `;
    if (e.description.startsWith(prefix)) {
      const detail = detailWords(kind, e.description.slice(prefix.length), e, packet);
      return { key: 'events.withDetail', values: { event, detail } };
    }
  }
  return e.description;
}
