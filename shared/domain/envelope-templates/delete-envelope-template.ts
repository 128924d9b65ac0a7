import { PermissionDeniedError } from '../errors';
import { retryOnConflict } from '../retry-on-conflict';
import type { TTemplateCaller } from '../templates/doc-template';
import {
  envelopeTemplateAccess,
  getEnvelopeTemplate,
  type TEnvelopeAccessDeps,
} from './get-envelope-template';

/**
 * Bundles already made from the template keep everything they need: they are not touched. With
 * teams on, only its owner and the account's admins may delete it (403 for the others).
 */
export async function deleteEnvelopeTemplate(
  deps: TEnvelopeAccessDeps,
  caller: TTemplateCaller,
  id: string,
): Promise<void> {
  const access = await envelopeTemplateAccess(deps, caller);
  await retryOnConflict(async () => {
    const current = await getEnvelopeTemplate(deps, caller, id, access);
    if (!access.mayManage(current))
      throw new PermissionDeniedError("Only the template's owner or an account admin may delete it.");
    await deps.envelopeTemplates.delete(current);
  });
}
