// A draft bundle's preparation link (POST /bundles/{id}/prepare_url/): the template preparation
// page's editor over the draft's documents, its packets as the roles and its fields
// (docs/architecture/bundle-editor.md). The link is a preparation session pointing at the bundle:
// unguessable, stored as its hash, an hour long, over once the draft is sent.
import { ConflictError, GoneError, NotFoundError } from '../errors';
import type { TAccountStore } from '../ports/accounts';
import type { TBundleStore } from '../ports/bundles';
import type { TClock } from '../ports/system';
import type { TPrepSessionStore } from '../ports/templates';
import { PREP_SESSION_TTL_SECONDS, type TPrepSession } from '../templates/prep-session';
import { hashToken, isToken, newToken } from '../tokens';
import type { TActing } from './actor';
import type { TBundle, TDocument } from './bundle';
import { getBundle } from './get-bundle';
import { isDraft } from './lifecycle/status';
import { sendDraft } from './send-draft';

export type TDraftSessionDeps = { sessions: TPrepSessionStore; bundles: TBundleStore; clock: TClock };

/** A bundle's editor session, with the ids the page's calls need. */
export type TDraftSession = TPrepSession & { bundleId: string; actor: NonNullable<TPrepSession['actor']> };

/** The path of the editor page: the service's public base URL, then this, then the token. */
export const DRAFT_EDITOR_PATH = '/prepare/bundle/';

/**
 * POST /bundles/{id}/prepare_url/: a link to the editor over a draft of the caller's account
 * (another account's id is 404, a bundle no longer a draft 409). What the page saves and sends
 * is done as the caller who made the link.
 */
export async function createDraftPrepSession(
  deps: TDraftSessionDeps,
  caller: TActing & { userId: string },
  bundleId: string,
  publicBaseUrl: string,
): Promise<{ url: string; expires: string }> {
  const bundle = await getBundle(deps, caller.accountId, bundleId);
  if (!isDraft(bundle.status))
    throw new ConflictError(`Only a draft can be prepared in the editor; this bundle is "${bundle.status}".`);
  const token = newToken();
  const now = deps.clock.now();
  const expires = new Date(now.getTime() + PREP_SESSION_TTL_SECONDS * 1000).toISOString();
  await deps.sessions.create({
    hash: hashToken(token),
    accountId: caller.accountId,
    userId: caller.userId,
    bundleId: bundle.id,
    actor: caller.by,
    created: now.toISOString(),
    expires,
  });
  return { url: `${publicBaseUrl.replace(/\/$/, '')}${DRAFT_EDITOR_PATH}${token}`, expires };
}

/** The stored bundle session a token names, whatever its state; undefined when there is none. */
export async function findDraftSession(
  deps: Pick<TDraftSessionDeps, 'sessions'>,
  token: unknown,
): Promise<TDraftSession | undefined> {
  const found = isToken(token) ? await deps.sessions.get(hashToken(token)) : undefined;
  // A template's link does not open a bundle, nor the reverse.
  return found?.bundleId && found.actor ? (found as TDraftSession) : undefined;
}

/**
 * The session a token opens and its draft: an unknown token or a bundle gone is 404; a link
 * expired is 410. A bundle no longer a draft (sent by the page or meanwhile by the API) is 410
 * for reading (the link is over) and 409 for a change (`change`), as the API answers a change
 * of a bundle already sent.
 */
export async function openDraftSession(
  deps: TDraftSessionDeps,
  token: unknown,
  { change = false } = {},
): Promise<{ session: TDraftSession; bundle: TBundle; documents: TDocument[] }> {
  const session = await findDraftSession(deps, token);
  if (!session) throw new NotFoundError('No such preparation session.');
  if (Date.parse(session.expires) <= deps.clock.now().getTime())
    throw new GoneError('This editor link has expired. Ask for a new one.');
  const bundle = await deps.bundles.get(session.accountId, session.bundleId);
  if (!bundle) throw new NotFoundError('The bundle of this link is gone.');
  if (!isDraft(bundle.status)) {
    const message = `This bundle was sent (it is "${bundle.status}"): it can no longer be changed here.`;
    throw change ? new ConflictError(message) : new GoneError(message);
  }
  if (session.savedAt) throw new GoneError('This draft was sent: the editor link is over.');
  return { session, bundle, documents: await deps.bundles.documents(bundle) };
}

/**
 * The page's Send: the draft is sent exactly as POST /bundles/{id}/send/ sends it, by whoever
 * made the link, and the link is over. A draft sent meanwhile (here or by the API) is 409.
 */
export async function sendFromEditor(
  deps: TDraftSessionDeps & { accounts: TAccountStore },
  token: unknown,
): Promise<TBundle> {
  const { session, bundle } = await openDraftSession(deps, token, { change: true });
  const sent = await sendDraft(deps, { accountId: session.accountId, by: session.actor }, bundle.id);
  await deps.sessions.finish(session.hash, deps.clock.now().toISOString()).catch(() => false);
  return sent;
}
