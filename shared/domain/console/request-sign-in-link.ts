import { ValidationError } from '../errors';
import type { TAccountStore } from '../ports/accounts';
import type { TConsoleStore, TCounterStore, TSignInMailer } from '../ports/console';
import { normalizeEmail } from '../ports/contact-keys';
import type { TQueue } from '../ports/queue';
import type { TClock, TIds } from '../ports/system';
import { hashToken, newToken } from '../tokens';
import { addMinutes, LINK_MINUTES, type TClient } from './console-session';
import { takeSignInAttempt } from './sign-in-throttle';

/** How many sign-in links an address, and a client address, may ask for per window. */
export interface TSignInLimits {
  perEmail: number;
  perIp: number;
  windowMinutes: number;
}

export const SIGN_IN_LIMITS: TSignInLimits = { perEmail: 5, perIp: 30, windowMinutes: 15 };

/** At most this many accounts get a link for one address (a person may be a user of several). */
const MAX_LINKS = 5;

export interface TRequestSignInDeps {
  counters: TCounterStore;
  /** The sign-in mail is queued: mailSignInLinks runs in the notifications worker. */
  queue: TQueue;
  clock: TClock;
  limits: TSignInLimits;
}

export interface TMailSignInDeps {
  console: TConsoleStore;
  accounts: TAccountStore;
  mailer: TSignInMailer;
  ids: TIds;
  /** `<base>/console/sign-in/<token>` is the link. */
  publicBaseUrl: string;
}

/** The address a sign-in form gave, normalized; a ValidationError when it is not one. */
export function emailOf(input: unknown): string {
  const email = (input as { email?: unknown } | undefined)?.email;
  if (typeof email !== 'string' || email.length > 320 || !/^[^\s@]+@[^\s@]+$/.test(email.trim())) {
    throw new ValidationError('Enter the email address you use for your account.', [
      { field: 'email', message: 'Enter a valid email address.' },
    ]);
  }
  return normalizeEmail(email);
}

/**
 * Asks for a sign-in link for this address. Throttled per client address first (a scan of many
 * addresses), then per address (a mailbox flooded); then the request is queued and answered.
 * Whether the address belongs to anyone is looked up only by the worker (mailSignInLinks), so the
 * answer, its content and its time, is the same work for every address and tells nobody who has
 * an account.
 */
export async function requestSignInLink(deps: TRequestSignInDeps, input: unknown, client: TClient) {
  const email = emailOf(input);
  const now = deps.clock.now();
  const { windowMinutes } = deps.limits;
  await takeSignInAttempt(deps, now, {
    kind: 'ip',
    subject: client.ip,
    limit: deps.limits.perIp,
    windowMinutes,
  });
  await takeSignInAttempt(deps, now, {
    kind: 'email',
    subject: email,
    limit: deps.limits.perEmail,
    windowMinutes,
  });
  await deps.queue.send('notifications', {
    type: 'console_sign_in',
    email,
    ip: client.ip.slice(0, 100),
    userAgent: client.userAgent.slice(0, 1000),
    at: now.toISOString(),
  });
}

/**
 * Emails each user with this address a one-time sign-in link (the notifications worker, from the
 * queued request). Links last from when they were asked for; none is sent for an address that is
 * no user's.
 */
export async function mailSignInLinks(
  deps: TMailSignInDeps,
  request: { email: string; at: string } & TClient,
): Promise<{ linksSent: number }> {
  const { email } = request;
  const asked = new Date(request.at);
  const client = { ip: request.ip, userAgent: request.userAgent };
  const users = (await deps.console.usersByEmail(email)).slice(0, MAX_LINKS);
  for (const u of users) {
    const token = newToken();
    await deps.console.saveLink({
      hash: hashToken(token),
      accountId: u.accountId,
      userId: u.userId,
      created: asked.toISOString(),
      expires: addMinutes(asked, LINK_MINUTES).toISOString(),
    });
    const account = await deps.accounts.getAccount(u.accountId);
    await deps.mailer.sendSignInLink(
      email,
      `${deps.publicBaseUrl}/console/sign-in/${token}`,
      account?.language,
    );
    await deps.console.recordSecurityEvent({
      id: deps.ids.uuid(),
      kind: 'sign_in_requested',
      accountId: u.accountId,
      userId: u.userId,
      ...client,
      at: asked.toISOString(),
    });
  }
  return { linksSent: users.length };
}
