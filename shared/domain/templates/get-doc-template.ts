import { type TTemplateAccess, templateAccess } from '../accounts/template-access';
import { NotFoundError } from '../errors';
import type { TAccountStore } from '../ports/accounts';
import type { TDocTemplateStore } from '../ports/templates';
import type { TDocTemplate, TTemplateCaller } from './doc-template';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A template the caller may see; another account's, a hidden one and a malformed id: not found. */
export async function findDocTemplate(
  deps: { templates: TDocTemplateStore; accounts: TAccountStore },
  caller: TTemplateCaller,
  id: string,
  /** The caller's access when the caller has read it already. */
  access?: TTemplateAccess,
): Promise<TDocTemplate | undefined> {
  if (!UUID.test(id)) return undefined;
  const template = await deps.templates.get(caller.accountId, id.toLowerCase());
  if (!template) return undefined;
  if (template.isShared) return template;
  return (access ?? (await templateAccess(deps, caller))).mayUse(template) ? template : undefined;
}

export async function getDocTemplate(
  deps: { templates: TDocTemplateStore; accounts: TAccountStore },
  caller: TTemplateCaller,
  id: string,
  access?: TTemplateAccess,
): Promise<TDocTemplate> {
  const template = await findDocTemplate(deps, caller, id, access);
  if (!template) throw new NotFoundError('Document template not found.');
  return template;
}
