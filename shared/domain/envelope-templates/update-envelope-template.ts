import type { TClock, TEnvelopeTemplateStore } from '../../ports';
import { parseInput } from '../../schemas/common';
import { ZEnvelopeTemplatePatchSchema } from '../../schemas/envelope-template';
import { retryOnConflict } from '../retry-on-conflict';
import { applyEnvelopeInput, type TDocumentTemplateCheck } from './build-envelope-template';
import type { TEnvelopeTemplate } from './envelope-template';
import { getEnvelopeTemplate } from './get-envelope-template';

/** PATCH: what is given replaces what is stored; `documents` and `signers` as whole lists. */
export async function updateEnvelopeTemplate(
  deps: {
    envelopeTemplates: TEnvelopeTemplateStore;
    documentTemplates?: TDocumentTemplateCheck;
    clock: TClock;
  },
  accountId: string,
  id: string,
  body: unknown,
  userId = '',
): Promise<TEnvelopeTemplate> {
  const input = parseInput(ZEnvelopeTemplatePatchSchema, body);
  return retryOnConflict(async () => {
    const current = await getEnvelopeTemplate(deps, accountId, id);
    const next: TEnvelopeTemplate = {
      ...current,
      // Documents are checked as the template's creator sees them: its smart link makes bundles so.
      ...(await applyEnvelopeInput(deps, { accountId, userId: current.owner ?? userId }, input, current)),
      updated: deps.clock.now().toISOString(),
      version: current.version + 1,
    };
    await deps.envelopeTemplates.save(next, current);
    return next;
  });
}
