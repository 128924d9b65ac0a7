// Human-readable output. Commands that create something print only the new id on stdout, so
// that `id=$(npm run -s admin -- …)` works without --json.
import { FEATURE_NAMES } from '#shared/schemas/vocabulary';
import type { TAccountDetails, TAccountView, TKeyView } from './commands';
import type { TSealView } from './seal-commands';

/** Columns padded to their widest cell; the last column is not padded. */
export function table(rows: string[][]): string {
  const widths: number[] = [];
  for (const row of rows) {
    for (const [i, cell] of row.entries()) widths[i] = Math.max(widths[i] ?? 0, cell.length);
  }
  return rows
    .map((row) =>
      row
        .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

export function featuresText(account: TAccountView): string {
  return table(FEATURE_NAMES.map((f) => [f.replaceAll('_', '-'), account.features[f] ? 'on' : 'off']));
}

export function accountsText(accounts: TAccountView[]): string {
  return table([
    ['ID', 'NAME', 'REQUESTER EMAIL', 'CREATED'],
    ...accounts.map((a) => [a.id, a.name, a.requesterEmail, a.created]),
  ]);
}

export function keyStatus(k: TKeyView): string {
  return k.revoked ? `revoked ${k.revoked}` : 'active';
}

function section(title: string, rows: string[][]): string {
  return rows.length === 0 ? `${title}: none` : `${title}:\n${indent(table(rows))}`;
}

const indent = (text: string) =>
  text
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n');

export function accountDetailsText(d: TAccountDetails): string {
  const a = d.account;
  const on = FEATURE_NAMES.filter((f) => a.features[f]).map((f) => f.replaceAll('_', '-'));
  return [
    table([
      ['Account', a.id],
      ['Name', a.name],
      ['Requester', `${a.requesterName} <${a.requesterEmail}>`],
      ['Created', a.created],
      ['Features', on.length > 0 ? on.join(', ') : 'none'],
      ['Embed origins', a.embedOrigins?.length ? a.embedOrigins.join(', ') : 'none'],
      ['Signing redirect', a.signingRedirectUrl ?? 'none'],
      ['Signer language', a.language ?? 'none (their browser’s)'],
      ['Image page size', a.imagePageSize ?? 'letter'],
      ['Payout', a.payout ? `${a.payout.connectedAccountId} (${a.payout.currency})` : 'none'],
    ]),
    section(
      'Users',
      d.users.map((u) => [u.id, u.name, u.email, u.isAdmin ? 'admin' : 'user', u.created]),
    ),
    section(
      'Teams',
      d.teams.map((t) => [
        t.id,
        t.name,
        t.requesterEmail ? `${t.requesterName ?? ''} <${t.requesterEmail}>`.trim() : (t.requesterName ?? ''),
        t.created,
      ]),
    ),
    section(
      'Brands',
      d.brands.map((b) => [
        b.id,
        b.name,
        b.primaryColor ?? '',
        b.logoUrl ?? '',
        b.redirectUrl ?? '',
        b.created,
      ]),
    ),
    section(
      'API keys',
      d.keys.map((k) => [
        k.keyId,
        `${k.prefix}...`,
        `user ${k.userId}`,
        `created ${k.created}`,
        keyStatus(k),
      ]),
    ),
  ].join('\n');
}

export function sealText(s: TSealView): string {
  const c = s.certificate;
  return [
    table([
      ['Seal of', s.owner],
      ['KMS key', `${s.keyId} (${s.keyArn})`],
      ['Algorithm', `${s.algorithm} (${s.keySpec})`],
      ['Subject', c.subject],
      ['Issuer', c.issuer],
      ['Valid', `${c.notBefore} to ${c.notAfter}`],
      ['SHA-256', c.sha256],
    ]),
    section(
      'Chain',
      s.chain.map((x, i) => [String(i + 1), x.subject, `issued by ${x.issuer}`, `until ${x.notAfter}`]),
    ),
  ].join('\n');
}
