import type { TAccountStore, TClock, TDocTemplateStore, TPdfTools, TPrepSessionStore } from '../../ports';
import { parseInput } from '../../schemas/common';
import { ZPrepSaveSchema } from '../../schemas/prep-session';
import { hashApiKey } from '../accounts/api-key-secret';
import { GoneError, NotFoundError, ValidationError } from '../errors';
import type { TDocTemplate } from './doc-template';
import { findDocTemplate } from './get-doc-template';
import { disallowedTags, type TPrepSession } from './prep-session';
import { updateDocTemplate } from './update-doc-template';

const TOKEN = /^[0-9A-Za-z]{43}$/;

type TSessionDeps = {
  sessions: TPrepSessionStore;
  templates: TDocTemplateStore;
  accounts: TAccountStore;
  clock: TClock;
};

/**
 * The session a token opens and its template, as the session's user sees it: an unknown token or a
 * template that is gone (or no longer visible to that user) is 404; an expired or saved session 410.
 */
export async function openPrepSession(
  deps: TSessionDeps,
  token: unknown,
): Promise<{ session: TPrepSession; template: TDocTemplate }> {
  const session =
    typeof token === 'string' && TOKEN.test(token) ? await deps.sessions.get(hashApiKey(token)) : undefined;
  if (!session) throw new NotFoundError('No such preparation session.');
  if (session.savedAt) throw new GoneError('This template was saved: the preparation session is over.');
  if (Date.parse(session.expires) <= deps.clock.now().getTime())
    throw new GoneError('This preparation link has expired. Ask for a new one.');
  const template = await findDocTemplate(
    deps,
    { accountId: session.accountId, userId: session.userId },
    session.templateId,
  );
  if (!template) throw new NotFoundError('The template of this session is gone.');
  return { session, template };
}

/**
 * The page's Save: name, roles and fields replace the template's through the same use case and
 * rules as PATCH /templates/{id}/, only if the template is still at the version the page read
 * (409 otherwise), and only with tags the session allows. A save that goes through ends the session.
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
  const template = await updateDocTemplate(
    deps,
    { accountId: session.accountId, userId: session.userId },
    session.templateId,
    { ...(input.name !== undefined ? { name: input.name } : {}), roles: input.roles, fields: input.fields },
    { expectedVersion: input.version },
  );
  await deps.sessions.finish(session.hash, deps.clock.now().toISOString());
  return { template, redirectUrl: session.redirectUrl };
}
