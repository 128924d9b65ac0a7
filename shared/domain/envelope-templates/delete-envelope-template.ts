import type { TEnvelopeTemplateStore } from '../../ports';
import { retryOnConflict } from '../retry-on-conflict';
import { getEnvelopeTemplate } from './get-envelope-template';

/** Bundles already made from the template keep everything they need: they are not touched. */
export async function deleteEnvelopeTemplate(
  deps: { envelopeTemplates: TEnvelopeTemplateStore },
  accountId: string,
  id: string,
): Promise<void> {
  await retryOnConflict(async () => {
    const current = await getEnvelopeTemplate(deps, accountId, id);
    await deps.envelopeTemplates.delete(current);
  });
}
