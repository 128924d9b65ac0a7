// Audit event kinds, two letters each (the upstream codes are not published; these are ours,
// documented in ARCHITECTURE.md). The same events drive webhooks.

export const EVENT_KINDS = {
  created: { code: 'cr', text: 'Bundle created' },
  drafted: { code: 'dr', text: 'Bundle saved as a draft' },
  sent: { code: 'se', text: 'Bundle sent' },
  updated: { code: 'up', text: 'Bundle updated' },
  tagsChanged: { code: 'tg', text: 'Tags changed' },
  cancelled: { code: 'ca', text: 'Bundle cancelled' },
  packetSent: { code: 'ps', text: 'Signing request sent' },
  packetReady: { code: 'pr', text: 'Ready for embedded signing' },
  packetUpdated: { code: 'pu', text: 'Signer updated' },
  reminderSent: { code: 'rm', text: 'Reminder sent' },
} as const;

export type TEventKind = keyof typeof EVENT_KINDS;
