import type { TAccountStore, TDocTemplateStore } from '../../ports';
import { retryOnConflict } from '../retry-on-conflict';
import type { TDocTemplate, TTemplateCaller } from './doc-template';
import { getDocTemplate } from './get-doc-template';

/**
 * Removes the template. Its PDF stays: bundles made from it keep pointing at the same object.
 * Bundles already made are not touched; the `template` filter still finds them.
 */
export async function deleteDocTemplate(
  deps: { templates: TDocTemplateStore; accounts: TAccountStore },
  caller: TTemplateCaller,
  id: string,
): Promise<TDocTemplate> {
  return retryOnConflict(async () => {
    const current = await getDocTemplate(deps, caller, id);
    await deps.templates.delete(current);
    return current;
  });
}
