import { templateAccess } from '../accounts/template-access';
import type { TPage, TPageOf } from '../paging';
import type { TAccountStore } from '../ports/accounts';
import type { TDocTemplateStore } from '../ports/templates';
import type { TDocTemplate, TTemplateCaller } from './doc-template';

/** The templates the caller may see, newest first. */
export async function listDocTemplates(
  deps: { templates: TDocTemplateStore; accounts: TAccountStore },
  caller: TTemplateCaller,
  page: TPage,
): Promise<TPageOf<TDocTemplate>> {
  const { mayUse } = await templateAccess(deps, caller);
  return deps.templates.list(caller.accountId, mayUse, page);
}
