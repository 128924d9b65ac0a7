import type { TClock } from '../../ports';
import { parseInput } from '../../schemas/common';
import { ZEnvelopeTemplatePatchSchema } from '../../schemas/envelope-template';
import { retryOnConflict } from '../retry-on-conflict';
import { applyEnvelopeInput, type TDocumentTemplateCheck } from './build-envelope-template';
import type { TEnvelopeTemplate } from './envelope-template';
import { getEnvelopeTemplate, type TEnvelopeAccessDeps, type TEnvelopeCaller } from './get-envelope-template';

/** PATCH: what is given replaces what is stored; `documents` and `signers` as whole lists. */
export async function updateEnvelopeTemplate(
  deps: TEnvelopeAccessDeps & { documentTemplates?: TDocumentTemplateCheck; clock: TClock },
  caller: TEnvelopeCaller,
  id: string,
  body: unknown,
): Promise<TEnvelopeTemplate> {
  const input = parseInput(ZEnvelopeTemplatePatchSchema, body);
  return retryOnConflict(async () => {
    const current = await getEnvelopeTemplate(deps, caller, id);
    const next: TEnvelopeTemplate = {
      ...current,
      // Documents are checked as the template's creator sees them: its smart link makes bundles so.
      ...(await applyEnvelopeInput(
        deps,
        { accountId: caller.accountId, userId: current.owner ?? caller.userId },
        input,
        current,
      )),
      updated: deps.clock.now().toISOString(),
      version: current.version + 1,
    };
    await deps.envelopeTemplates.save(next, current);
    return next;
  });
}
