import { retryOnConflict } from '../retry-on-conflict';
import { getEnvelopeTemplate, type TEnvelopeAccessDeps, type TEnvelopeCaller } from './get-envelope-template';

/** Bundles already made from the template keep everything they need: they are not touched. */
export async function deleteEnvelopeTemplate(
  deps: TEnvelopeAccessDeps,
  caller: TEnvelopeCaller,
  id: string,
): Promise<void> {
  await retryOnConflict(async () => {
    const current = await getEnvelopeTemplate(deps, caller, id);
    await deps.envelopeTemplates.delete(current);
  });
}
