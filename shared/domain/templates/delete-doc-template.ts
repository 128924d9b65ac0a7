import { templateAccess } from '../accounts/template-access';
import { PermissionDeniedError } from '../errors';
import type { TAccountStore } from '../ports/accounts';
import type { TDocTemplateStore } from '../ports/templates';
import { retryOnConflict } from '../retry-on-conflict';
import type { TDocTemplate, TTemplateCaller } from './doc-template';
import { getDocTemplate } from './get-doc-template';

/**
 * Removes the template. Its PDF stays: bundles made from it keep pointing at the same object.
 * Bundles already made are not touched; the `template` filter still finds them. With teams on,
 * only its owner and the account's admins may (403 for the others it is shared with).
 */
export async function deleteDocTemplate(
  deps: { templates: TDocTemplateStore; accounts: TAccountStore },
  caller: TTemplateCaller,
  id: string,
): Promise<TDocTemplate> {
  const access = await templateAccess(deps, caller);
  return retryOnConflict(async () => {
    const current = await getDocTemplate(deps, caller, id, access);
    if (!access.mayManage(current))
      throw new PermissionDeniedError("Only the template's owner or an account admin may delete it.");
    await deps.templates.delete(current);
    return current;
  });
}
