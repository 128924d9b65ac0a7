import type { TPage } from '../../http/pagination';
import type { TAccountStore, TDocTemplateStore, TPageOf } from '../../ports';
import { isVisible, type TDocTemplate, type TTemplateCaller } from './doc-template';

/** The templates the caller may see, newest first. */
export async function listDocTemplates(
  deps: { templates: TDocTemplateStore; accounts: TAccountStore },
  caller: TTemplateCaller,
  page: TPage,
): Promise<TPageOf<TDocTemplate>> {
  const account = await deps.accounts.getAccount(caller.accountId);
  return deps.templates.list(caller.accountId, (t) => isVisible(t, caller, account), page);
}
