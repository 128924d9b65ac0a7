// From checked flags to a command call, and from its result to what is printed.
import { readFileSync } from 'node:fs';
import type { TSealKeySpec } from '#shared/adapters/sealing/kms-seal-key';
import { featuresFrom, type TCommandName, type TFlags } from './cli';
import {
  addBrandCommand,
  addTeamCommand,
  addUserCommand,
  clearPayoutCommand,
  clearSsoCommand,
  createAccountCommand,
  createKeyCommand,
  erasePersonCommand,
  indexUserEmailsCommand,
  listAccountsCommand,
  migrateCommand,
  refundPaymentCommand,
  requireAccount,
  revokeKeyCommand,
  setAccountLanguageCommand,
  setEmbedOriginsCommand,
  setFeaturesCommand,
  setImagePageSizeCommand,
  setPayoutCommand,
  setSigningRedirectCommand,
  setSsoCommand,
  setUserTeamsCommand,
  showAccountCommand,
  type TAdminDeps,
} from './commands';
import { createDocumentsKeyCommand, destroyDocumentsKeyCommand } from './documents-key-commands';
import { exportAccountCommand, importAccountCommand } from './export-commands';
import { accountDetailsText, accountsText, featuresText, keyStatus, sealText } from './output';
import { legalHoldCommand, runRetentionCommand, setRetentionCommand } from './retention-commands';
import {
  sealCsrCommand,
  sealInstallCertCommand,
  sealRevokeCommand,
  sealShowCommand,
  type TSealAdmin,
} from './seal-commands';

export interface TOutput {
  /** Printed with --json. */
  data: unknown;
  /** Printed otherwise, on stdout. */
  text: string;
  /** Printed otherwise, on stderr: for the person, not for a script capturing stdout. */
  note?: string;
}

/** A flag the command line already required, or one that may be absent. */
const req = (flags: TFlags, name: string) => String(flags[name]);
const opt = (flags: TFlags, name: string) => (typeof flags[name] === 'string' ? flags[name] : undefined);

/** Leaves out absent flags, so input objects carry only what the operator gave. */
function given<T extends Record<string, unknown>>(input: T): T {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as T;
}

/** KMS and the chains, for the seal-* commands; with --account, once the account is known to exist. */
async function sealOf(deps: TAdminDeps, accountId: string | undefined): Promise<TSealAdmin> {
  if (accountId !== undefined) await requireAccount(deps, accountId);
  if (!deps.seal) throw new Error('The seal commands are not available on this target.');
  return deps.seal();
}

function readChainFile(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw new Error(
      `Cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? 'error'}): give the PEM file the CA sent.`,
    );
  }
}

export async function runCommand(command: TCommandName, flags: TFlags, deps: TAdminDeps): Promise<TOutput> {
  switch (command) {
    case 'seal-csr': {
      const accountId = opt(flags, 'account');
      const out = await sealCsrCommand(await sealOf(deps, accountId), {
        subject: req(flags, 'subject'),
        ...given({ accountId, keySpec: opt(flags, 'key-spec') as TSealKeySpec | undefined }),
      });
      return {
        data: out,
        text: out.csr.trimEnd(),
        note:
          `${out.created ? 'Made the KMS key' : 'KMS key'} ${out.keyId} (${out.keyArn}); its private half never leaves KMS.\n` +
          `Send this request to your CA; then run seal-install-cert --file chain.pem${accountId ? ` --account ${accountId}` : ''} with the certificate and its issuers.`,
      };
    }
    case 'seal-install-cert': {
      const accountId = opt(flags, 'account');
      const view = await sealInstallCertCommand(await sealOf(deps, accountId), {
        pem: readChainFile(req(flags, 'file')),
        ...given({ accountId }),
      });
      return {
        data: view,
        text: sealText(view),
        note: `Installed: ${view.owner} now seals with this certificate.`,
      };
    }
    case 'seal-revoke': {
      const accountId = opt(flags, 'account');
      if (!deps.localCa) {
        throw new Error(
          "seal-revoke revokes at the local runtime's CA only. On AWS, ask the CA that issued the seal certificate to revoke it, then run seal-csr and seal-install-cert for a new one.",
        );
      }
      const revoked = await sealRevokeCommand(await sealOf(deps, accountId), await deps.localCa(), accountId);
      return {
        data: revoked,
        text: `${revoked.subject}\nserial ${revoked.serial}, revoked ${revoked.revokedAt}`,
        note: 'Its OCSP answers and CRL now say revoked; restart npm start to have the local CA issue a new seal certificate.',
      };
    }
    case 'seal-show': {
      const accountId = opt(flags, 'account');
      const view = await sealShowCommand(await sealOf(deps, accountId), accountId);
      return { data: view, text: sealText(view) };
    }
    case 'create-account': {
      const a = await createAccountCommand(
        deps,
        given({
          name: req(flags, 'name'),
          email: req(flags, 'email'),
          requesterName: opt(flags, 'requester-name'),
        }),
      );
      return { data: a, text: a.id };
    }
    case 'add-user': {
      const u = await addUserCommand(deps, req(flags, 'account'), {
        name: req(flags, 'name'),
        email: req(flags, 'email'),
        isAdmin: flags.admin === true,
        ...given({ teams: opt(flags, 'teams') }),
      });
      return { data: u, text: u.id };
    }
    case 'index-user-emails': {
      const done = await indexUserEmailsCommand(deps, opt(flags, 'account'));
      return {
        data: done,
        text: done.map((d) => `${d.accountId}\t${d.users} users`).join('\n'),
        note: `Indexed the users of ${done.length} account(s): they can now ask for a sign-in link.`,
      };
    }
    case 'migrate': {
      const done = await migrateCommand(deps);
      const left = done.reduce((n, d) => n + d.found - d.upgraded, 0);
      return {
        data: done,
        text: done.map((d) => `${d.name}\t${d.found} found\t${d.upgraded} upgraded`).join('\n'),
        note:
          left > 0
            ? `${left} item(s) changed while this ran: run it again to look at them.`
            : `Every item is up to date (${done[0]?.scanned ?? 0} read).`,
      };
    }
    case 'set-user-teams': {
      const u = await setUserTeamsCommand(
        deps,
        req(flags, 'account'),
        req(flags, 'user'),
        req(flags, 'teams'),
      );
      const teams = u.teams ?? [];
      return teams.length > 0
        ? { data: u, text: teams.join('\n') }
        : { data: u, text: '', note: 'The user is in no team.' };
    }
    case 'create-key': {
      const { secret, key } = await createKeyCommand(
        deps,
        req(flags, 'account'),
        req(flags, 'user'),
        opt(flags, 'name'),
      );
      return {
        data: { apiKey: secret, ...key },
        text: secret,
        note: `Key id: ${key.keyId}\nThis is the only time the key is shown; only its SHA-256 hash is stored.`,
      };
    }
    case 'revoke-key': {
      const k = await revokeKeyCommand(deps, req(flags, 'account'), req(flags, 'key-id'));
      return { data: k, text: `${k.keyId} ${keyStatus(k)}` };
    }
    case 'set-features': {
      const a = await setFeaturesCommand(deps, req(flags, 'account'), featuresFrom(flags));
      return { data: a, text: featuresText(a) };
    }
    case 'add-team': {
      const t = await addTeamCommand(
        deps,
        req(flags, 'account'),
        given({
          name: req(flags, 'name'),
          requesterName: opt(flags, 'requester-name'),
          requesterEmail: opt(flags, 'requester-email'),
        }),
      );
      return { data: t, text: t.id };
    }
    case 'add-brand': {
      const b = await addBrandCommand(
        deps,
        req(flags, 'account'),
        given({
          name: req(flags, 'name'),
          redirectUrl: opt(flags, 'redirect-url'),
          primaryColor: opt(flags, 'primary-color'),
          logoUrl: opt(flags, 'logo-url'),
        }),
      );
      return { data: b, text: b.id };
    }
    case 'set-image-page-size': {
      const a = await setImagePageSizeCommand(deps, req(flags, 'account'), req(flags, 'size'));
      return { data: a, text: a.imagePageSize ?? 'letter' };
    }
    case 'set-signing-redirect': {
      const a = await setSigningRedirectCommand(deps, req(flags, 'account'), req(flags, 'url'));
      return a.signingRedirectUrl
        ? { data: a, text: a.signingRedirectUrl }
        : { data: a, text: '', note: 'No redirect: signers see the done page.' };
    }
    case 'set-language': {
      const a = await setAccountLanguageCommand(deps, req(flags, 'account'), req(flags, 'language'));
      return a.language
        ? { data: a, text: a.language }
        : { data: a, text: '', note: "No default language: signers read their browser's." };
    }
    case 'set-payout': {
      const a = await setPayoutCommand(deps, req(flags, 'account'), {
        connectedAccount: req(flags, 'connected-account'),
        currency: req(flags, 'currency'),
      });
      return { data: a, text: `${a.payout?.connectedAccountId} ${a.payout?.currency}` };
    }
    case 'clear-payout': {
      const a = await clearPayoutCommand(deps, req(flags, 'account'));
      return { data: a, text: '', note: 'No payout settings: bundles with a payment are refused.' };
    }
    case 'refund-payment': {
      const { bundle, refund } = await refundPaymentCommand(
        deps,
        req(flags, 'account'),
        req(flags, 'bundle'),
      );
      const status = bundle.payment?.status ?? 'due';
      const note = !refund
        ? 'Refunded already: nothing asked of the processor.'
        : refund.status === 'pending'
          ? `Refund ${refund.id} is pending: the payment shows refunded once the processor confirms it.`
          : `Refund ${refund.id} done.`;
      return { data: { payment: bundle.payment ?? null, refund: refund ?? null }, text: status, note };
    }
    case 'set-retention': {
      const p = await setRetentionCommand(deps, req(flags, 'account'), {
        originals: opt(flags, 'originals-days'),
        finals: opt(flags, 'finals-days'),
        images: opt(flags, 'images-days'),
      });
      const parts = Object.entries(p).filter(([, d]) => d !== null);
      return parts.length > 0
        ? { data: p, text: parts.map(([k, d]) => `${k} ${d}`).join('\n') }
        : { data: p, text: '', note: 'No retention policy: documents are kept for ever.' };
    }
    case 'legal-hold':
    case 'release-legal-hold': {
      const r = await legalHoldCommand(
        deps,
        req(flags, 'account'),
        req(flags, 'bundle'),
        command === 'legal-hold',
      );
      return r.legal_hold
        ? { data: r, text: `held since ${r.legal_hold.set_at}` }
        : { data: r, text: 'not held', note: 'The retention policy deletes what is due at its next run.' };
    }
    case 'run-retention': {
      const r = await runRetentionCommand(deps, req(flags, 'account'));
      const lines = [
        `bundles deleted ${r.deleted} of ${r.checked}`,
        ...r.batchesErased.map((id) => `batch erased ${id}`),
        ...r.failed.map((f) => `failed ${f.id} ${f.error}`),
      ];
      const note =
        r.failed.length > 0
          ? 'Some deletions failed; they stay due: run the command again, or the scheduler will.'
          : r.deleted === 0
            ? 'Nothing was due: the policy has not yet reached any ended bundle, or none is kept by one.'
            : undefined;
      return { data: r, text: lines.join('\n'), note };
    }
    case 'erase-person': {
      const r = await erasePersonCommand(deps, req(flags, 'account'), {
        email: opt(flags, 'email'),
        phone: opt(flags, 'phone'),
      });
      const lines = [
        ...r.personsRemoved.map((id) => `removed ${id}`),
        ...r.bundlesToActOn.map((b) => `act-on ${b.id} ${b.status ?? 'being-created'}`),
        ...r.bundlesKept.map((b) => `kept ${b.id} ${b.status} until ${b.keptUntil ?? 'no-policy'}`),
      ];
      const note =
        r.personsRemoved.length === 0
          ? 'Nobody of this account has that address: nothing erased.'
          : r.bundlesToActOn.length > 0
            ? 'Ask the sender to cancel the bundles marked act-on, or to change their signer.'
            : undefined;
      return { data: r, text: lines.join('\n'), note };
    }
    case 'account-key-create': {
      const { key, created } = await createDocumentsKeyCommand(deps, req(flags, 'account'));
      return {
        data: { ...key, created },
        text: key.keyArn,
        note: created
          ? "The account's documents written from now on are encrypted under this key."
          : 'The account has this key already: nothing was made.',
      };
    }
    case 'account-key-destroy': {
      const [days, wait] = [opt(flags, 'days'), opt(flags, 'wait-seconds')];
      const { key, repeated } = await destroyDocumentsKeyCommand(
        deps,
        req(flags, 'account'),
        days === undefined ? undefined : Number(days),
        wait === undefined ? undefined : Number(wait),
      );
      return {
        data: { ...key, repeated },
        text: `${key.keyArn} pending deletion, deleted on ${key.deletionDate}`,
        note:
          (repeated ? 'The key was destroyed already. ' : '') +
          `None of the account's documents can be read or stored from now on; KMS deletes the key for good on ${key.deletionDate?.slice(0, 10)}.`,
      };
    }
    case 'export-account': {
      const out = opt(flags, 'out');
      const e = await exportAccountCommand(deps, req(flags, 'account'), out);
      const a = e.archive!;
      return {
        data: e,
        text: a.key,
        note:
          `Export ${e.id}: ${a.files} files, ${a.records} records, ${a.size} bytes, SHA-256 ${a.sha256}.` +
          (out ? `\nWritten to ${out}.` : '') +
          '\nWebhook secrets are not exported: give your receivers the new secret after the import.',
      };
    }
    case 'import-account': {
      const r = await importAccountCommand(deps, req(flags, 'archive'), opt(flags, 'account'));
      return {
        data: r,
        text: r.accountId,
        note:
          `Restored account ${r.accountId} (${r.bundles} bundles): ${r.records.written} records and ${r.files.written} files written, ` +
          `${r.records.present} records and ${r.files.present} files already here.\nNot in the archive, to set up again:\n` +
          r.notExported.map((n) => `  - ${n}`).join('\n'),
      };
    }
    case 'set-embed-origins': {
      const a = await setEmbedOriginsCommand(deps, req(flags, 'account'), req(flags, 'origins'));
      const origins = a.embedOrigins ?? [];
      return origins.length > 0
        ? { data: a, text: origins.join('\n') }
        : { data: a, text: '', note: 'No origins: embedded signing pages cannot be framed.' };
    }
    case 'set-sso': {
      const view = await setSsoCommand(deps, req(flags, 'account'), {
        issuer: req(flags, 'issuer'),
        clientId: req(flags, 'client-id'),
        clientSecret: req(flags, 'client-secret'),
        domains: req(flags, 'domains'),
      });
      return {
        data: view,
        text: `${view.issuer} ${view.clientId}\n${view.domains.join('\n')}`,
        note: 'Register <the service URL>/console/api/sso/callback as the redirect URI at the provider.',
      };
    }
    case 'clear-sso': {
      const cleared = await clearSsoCommand(deps, req(flags, 'account'));
      return {
        data: { cleared },
        text: '',
        note: cleared
          ? 'Single sign-on is off: users sign in by email link.'
          : 'The account had no single sign-on.',
      };
    }
    case 'list-accounts': {
      const accounts = await listAccountsCommand(deps);
      return accounts.length > 0
        ? { data: accounts, text: accountsText(accounts) }
        : { data: accounts, text: '', note: 'No accounts yet.' };
    }
    case 'show-account': {
      const details = await showAccountCommand(deps, req(flags, 'account'));
      return { data: details, text: accountDetailsText(details) };
    }
  }
}
