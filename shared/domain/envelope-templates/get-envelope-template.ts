import { type TTemplateAccess, templateAccess } from '../accounts/template-access';
import { NotFoundError, PermissionDeniedError } from '../errors';
import type { TAccountStore } from '../ports/accounts';
import type { TEnvelopeTemplateStore } from '../ports/templates';
import type { TTemplateCaller } from '../templates/doc-template';
import { ENVELOPE_TEMPLATE_ID, type TEnvelopeTemplate } from './envelope-template';

export type TEnvelopeAccessDeps = { envelopeTemplates: TEnvelopeTemplateStore; accounts: TAccountStore };

/**
 * The spec's 403 for envelope templates: an account whose operator has turned the feature off is
 * refused every envelope-template call, whatever the template.
 */
export async function envelopeTemplateAccess(
  deps: { accounts: TAccountStore },
  caller: TTemplateCaller,
): Promise<TTemplateAccess> {
  const access = await templateAccess(deps, caller);
  if (!access.account?.features.envelope_templates)
    throw new PermissionDeniedError('Envelope templates are not enabled for this account.');
  return access;
}

/**
 * Another account's template and a malformed id answer the same: not found. One of the caller's
 * account that is not shared with the caller (teams on; see template-access) is forbidden: 403.
 */
export async function getEnvelopeTemplate(
  deps: TEnvelopeAccessDeps,
  caller: TTemplateCaller,
  id: string,
  /** The caller's access when the caller has read it already. */
  access?: TTemplateAccess,
): Promise<TEnvelopeTemplate> {
  const { mayUse } = access ?? (await envelopeTemplateAccess(deps, caller));
  const template = ENVELOPE_TEMPLATE_ID.test(id)
    ? await deps.envelopeTemplates.get(caller.accountId, id)
    : undefined;
  if (!template) throw new NotFoundError('Envelope template not found.');
  if (!mayUse(template)) throw new PermissionDeniedError('This envelope template is not shared with you.');
  return template;
}
