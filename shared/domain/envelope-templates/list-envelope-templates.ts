import type { TPage, TPageOf } from '../paging';
import type { TTemplateCaller } from '../templates/doc-template';
import type { TEnvelopeTemplate } from './envelope-template';
import { envelopeTemplateAccess, type TEnvelopeAccessDeps } from './get-envelope-template';

/** Enabled templates the caller may use only, newest created first (spec, "List Envelope Templates"). */
export async function listEnvelopeTemplates(
  deps: TEnvelopeAccessDeps,
  caller: TTemplateCaller,
  page: TPage,
): Promise<TPageOf<TEnvelopeTemplate>> {
  const { mayUse } = await envelopeTemplateAccess(deps, caller);
  return deps.envelopeTemplates.listEnabled(caller.accountId, mayUse, page);
}
