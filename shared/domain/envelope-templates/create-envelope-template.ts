import type { TClock, TEnvelopeTemplateStore, TIds } from '../../ports';
import { parseInput } from '../../schemas/common';
import { ZEnvelopeTemplateWriteSchema } from '../../schemas/envelope-template';
import { retryOnConflict } from '../retry-on-conflict';
import { applyEnvelopeInput, type TDocumentTemplateCheck } from './build-envelope-template';
import type { TEnvelopeTemplate } from './envelope-template';

/** `T-` and the first 8 characters of a random base62 slug (about 47 bits). */
const newEnvelopeTemplateId = (ids: TIds) => `T-${ids.slug().slice(0, 8)}`;

export async function createEnvelopeTemplate(
  deps: {
    envelopeTemplates: TEnvelopeTemplateStore;
    documentTemplates?: TDocumentTemplateCheck;
    clock: TClock;
    ids: TIds;
  },
  accountId: string,
  body: unknown,
  userId?: string,
): Promise<TEnvelopeTemplate> {
  const input = parseInput(ZEnvelopeTemplateWriteSchema, body);
  const settings = await applyEnvelopeInput(deps, { accountId, userId: userId ?? '' }, input, undefined);
  // An id already taken (by any account: ids are global, for the portal) is drawn again.
  return retryOnConflict(async () => {
    const now = deps.clock.now().toISOString();
    const template: TEnvelopeTemplate = {
      ...settings,
      id: newEnvelopeTemplateId(deps.ids),
      accountId,
      ...(userId ? { owner: userId } : {}),
      created: now,
      updated: now,
      version: 1,
    };
    await deps.envelopeTemplates.save(template, undefined);
    return template;
  });
}
