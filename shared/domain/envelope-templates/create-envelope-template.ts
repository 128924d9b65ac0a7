import { ZEnvelopeTemplateWriteSchema } from '#shared/schemas/envelope-template';
import { createOnce } from '../create-once';
import { derivedSlug } from '../derived-ids';
import { parseInput } from '../parse-input';
import type { TClock, TIds } from '../ports/system';
import { retryOnConflict } from '../retry-on-conflict';
import type { TTemplateCaller } from '../templates/doc-template';
import { applyEnvelopeInput, type TDocumentTemplateCheck } from './build-envelope-template';
import type { TEnvelopeTemplate } from './envelope-template';
import { envelopeTemplateAccess, type TEnvelopeAccessDeps } from './get-envelope-template';

/** `T-` and the first 8 characters of a random base62 slug (about 47 bits). */
const newEnvelopeTemplateId = (ids: TIds) => `T-${ids.slug().slice(0, 8)}`;

export async function createEnvelopeTemplate(
  deps: TEnvelopeAccessDeps & { documentTemplates?: TDocumentTemplateCheck; clock: TClock; ids: TIds },
  caller: TTemplateCaller,
  body: unknown,
  /** Under an Idempotency-Key: the template's id follows from the request (create-once.ts). */
  retrySeed?: string,
): Promise<TEnvelopeTemplate> {
  await envelopeTemplateAccess(deps, caller);
  const input = parseInput(ZEnvelopeTemplateWriteSchema, body);
  const { accountId, userId } = caller;
  const settings = await applyEnvelopeInput(deps, caller, input, undefined);
  const write = async (id: string) => {
    const now = deps.clock.now().toISOString();
    const template: TEnvelopeTemplate = {
      ...settings,
      id,
      accountId,
      ...(userId ? { owner: userId } : {}),
      created: now,
      updated: now,
      version: 1,
    };
    await deps.envelopeTemplates.save(template, undefined);
    return template;
  };
  if (retrySeed !== undefined) {
    const derived = `T-${derivedSlug(`envelope-template:${retrySeed}`).slice(0, 8)}`;
    return createOnce(
      derived,
      (id) => deps.envelopeTemplates.get(accountId, id),
      () => write(derived),
    );
  }
  // An id already taken (by any account: ids are global, for the portal) is drawn again.
  return retryOnConflict(() => write(newEnvelopeTemplateId(deps.ids)));
}
