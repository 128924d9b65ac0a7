import type { TEnvelopeTemplateStore } from '../../ports';
import { NotFoundError } from '../errors';
import { ENVELOPE_TEMPLATE_ID, type TEnvelopeTemplate } from './envelope-template';

/** Another account's template and a malformed id answer the same: not found. */
export async function getEnvelopeTemplate(
  deps: { envelopeTemplates: TEnvelopeTemplateStore },
  accountId: string,
  id: string,
): Promise<TEnvelopeTemplate> {
  const template = ENVELOPE_TEMPLATE_ID.test(id)
    ? await deps.envelopeTemplates.get(accountId, id)
    : undefined;
  if (!template) throw new NotFoundError('Envelope template not found.');
  return template;
}
