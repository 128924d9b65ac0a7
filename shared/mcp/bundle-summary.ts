// What the tools show of a bundle: the API's answer cut down to what an agent acts on, with the
// two-letter status codes spelled out (docs/api-decisions.md, "Enumerations").

const BUNDLE_STATUS: Record<string, string> = {
  pe: 'documents being processed',
  dr: 'draft',
  se: 'sent',
  st: 'started (a signer opened it)',
  co: 'complete',
  ca: 'cancelled',
  ex: 'expired',
  fa: 'failed',
};

const SIGNER_STATUS: Record<string, string> = {
  ne: 'not sent yet (draft, or waiting for earlier signers)',
  re: 'ready for embedded or in-person signing',
  se: 'sent, not opened',
  st: 'opened, not finished',
  co: 'signed',
  ca: 'cancelled or declined',
  ex: 'expired',
  fa: 'failed',
};

/** The bundle statuses, for the schemas' descriptions. */
export const BUNDLE_STATUS_CODES = Object.keys(BUNDLE_STATUS) as [string, ...string[]];
export const BUNDLE_STATUS_HELP = Object.entries(BUNDLE_STATUS)
  .map(([code, meaning]) => `${code} = ${meaning}`)
  .join(', ');

interface TPacketAnswer {
  id: string;
  name: string;
  email: string;
  phone: string;
  status: string;
  deliver_via: string;
  completed_at: string | null;
}

export interface TBundleAnswer {
  id: string;
  label: string;
  status: string;
  created: string;
  sent: string | null;
  completed_at: string | null;
  docs_ready: boolean;
  tags: string[];
  is_test: boolean;
  errors: unknown[];
  packets: TPacketAnswer[];
  documents: { key: string; name: string }[];
}

const signerOf = (p: TPacketAnswer) => ({
  signer_id: p.id,
  name: p.name,
  ...(p.email ? { email: p.email } : {}),
  ...(p.phone ? { phone: p.phone } : {}),
  status: p.status,
  status_meaning: SIGNER_STATUS[p.status] ?? p.status,
  ...(p.completed_at ? { signed_at: p.completed_at } : {}),
});

/** A bundle as lists show it. */
export function bundleSummary(b: TBundleAnswer) {
  return {
    bundle_id: b.id,
    label: b.label,
    status: b.status,
    status_meaning: BUNDLE_STATUS[b.status] ?? b.status,
    created: b.created,
    sent: b.sent,
    completed_at: b.completed_at,
    tags: b.tags,
    ...(b.is_test ? { is_test: true } : {}),
    signers: b.packets.map((p) => ({ name: p.name, status: p.status })),
  };
}

/** A bundle with every signer, and who has not signed yet. */
export function bundleStatus(b: TBundleAnswer) {
  const waiting = b.packets.filter((p) => p.status !== 'co');
  return {
    ...bundleSummary(b),
    docs_ready: b.docs_ready,
    ...(b.errors.length > 0 ? { errors: b.errors } : {}),
    documents: b.documents.map((d) => ({ key: d.key, name: d.name })),
    signers: b.packets.map(signerOf),
    not_signed_yet: waiting.map(signerOf),
  };
}
