import { ZPrepSaveSchema } from '#shared/schemas/prep-session';
import { GoneError, NotFoundError, ValidationError } from '../errors';
import { parseInput } from '../parse-input';
import type { TAccountStore } from '../ports/accounts';
import type { TPdfTools } from '../ports/files';
import type { TClock } from '../ports/system';
import type { TDocTemplateStore, TPrepSessionStore } from '../ports/templates';
import { hashToken, isToken } from '../tokens';
import type { TDocTemplate } from './doc-template';
import { findDocTemplate } from './get-doc-template';
import { disallowedTags, type TPrepSession } from './prep-session';
import { updateDocTemplate } from './update-doc-template';

type TSessionDeps = {
  sessions: TPrepSessionStore;
  templates: TDocTemplateStore;
  accounts: TAccountStore;
  clock: TClock;
};

/** The stored session a token names, whatever its state; undefined for an unknown or malformed token. */
export async function findPrepSession(
  deps: Pick<TSessionDeps, 'sessions'>,
  token: unknown,
): Promise<TPrepSession | undefined> {
  return isToken(token) ? deps.sessions.get(hashToken(token)) : undefined;
}

/**
 * The session a token opens and its template, as the session's user sees it: an unknown token or a
 * template that is gone (or no longer visible to that user) is 404; an expired or saved session 410.
 */
export async function openPrepSession(
  deps: TSessionDeps,
  token: unknown,
): Promise<{ session: TPrepSession & { templateId: string }; template: TDocTemplate }> {
  return openFoundSession(deps, await findPrepSession(deps, token));
}

/** As openPrepSession, for a session the caller has looked up already. */
export async function openFoundSession(
  deps: TSessionDeps,
  session: TPrepSession | undefined,
): Promise<{ session: TPrepSession & { templateId: string }; template: TDocTemplate }> {
  // A draft bundle's link does not open the template page's API, nor the reverse.
  if (!session?.templateId) throw new NotFoundError('No such preparation session.');
  if (session.savedAt) throw new GoneError('This template was saved: the preparation session is over.');
  if (Date.parse(session.expires) <= deps.clock.now().getTime())
    throw new GoneError('This preparation link has expired. Ask for a new one.');
  const { templateId } = session;
  const template = await findDocTemplate(
    deps,
    { accountId: session.accountId, userId: session.userId },
    templateId,
  );
  if (!template) throw new NotFoundError('The template of this session is gone.');
  return { session: { ...session, templateId }, template };
}

/**
 * The page's Save: name, roles and fields replace the template's through the same use case and
 * rules as PATCH /templates/{id}/, only if the template is still at the version the page read
 * (409 otherwise), and only with tags the session allows. The session is claimed first (a
 * conditional write: of two saves only one gets it, the other is 410) and the template written
 * after; a write that fails (400, 409, anything) gives the claim back, so the page can fix and save
 * again. A save that goes through ends the session.
 */
export async function savePrepSession(
  deps: TSessionDeps & { pdf: TPdfTools },
  token: unknown,
  body: unknown,
): Promise<{ template: TDocTemplate; redirectUrl: string | undefined }> {
  const { session } = await openPrepSession(deps, token);
  const input = parseInput(ZPrepSaveSchema, body);
  const tagErrors = disallowedTags(input.fields, session.allowedTags);
  if (tagErrors.length > 0) throw new ValidationError('Invalid input.', tagErrors);
  const claimedAt = deps.clock.now().toISOString();
  if (!(await deps.sessions.finish(session.hash, claimedAt)))
    throw new GoneError(
      'This template was saved (or is being saved) by another request: the session is over.',
    );
  try {
    const template = await updateDocTemplate(
      deps,
      { accountId: session.accountId, userId: session.userId },
      session.templateId,
      { ...(input.name !== undefined ? { name: input.name } : {}), roles: input.roles, fields: input.fields },
      { expectedVersion: input.version },
    );
    return { template, redirectUrl: session.redirectUrl };
  } catch (err) {
    // The save's own error is the one to answer; a claim that could not be given back leaves the
    // session spent (410), as if saved.
    await deps.sessions.reopen(session.hash, claimedAt).catch(() => false);
    throw err;
  }
}
