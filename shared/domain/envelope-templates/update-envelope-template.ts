import { ZEnvelopeTemplatePatchSchema } from '#shared/schemas/envelope-template';
import { PermissionDeniedError, type TFieldError, ValidationError } from '../errors';
import { parseInput } from '../parse-input';
import type { TClock } from '../ports/system';
import { retryOnConflict } from '../retry-on-conflict';
import type { TTemplateCaller } from '../templates/doc-template';
import { applyEnvelopeInput, type TDocumentTemplateCheck } from './build-envelope-template';
import type { TEnvelopeTemplate } from './envelope-template';
import {
  envelopeTemplateAccess,
  getEnvelopeTemplate,
  type TEnvelopeAccessDeps,
} from './get-envelope-template';

/**
 * PATCH: what is given replaces what is stored; `documents` and `signers` as whole lists. Whoever
 * may use the template may change it, but changing who sees it (`is_shared`) is for its owner and
 * the account's admins (403), and a document template it did not have must be one the caller
 * sees as well as one its owner sees (so nobody adds what they could not use themselves).
 */
export async function updateEnvelopeTemplate(
  deps: TEnvelopeAccessDeps & { documentTemplates?: TDocumentTemplateCheck; clock: TClock },
  caller: TTemplateCaller,
  id: string,
  body: unknown,
): Promise<TEnvelopeTemplate> {
  const input = parseInput(ZEnvelopeTemplatePatchSchema, body);
  const access = await envelopeTemplateAccess(deps, caller);
  return retryOnConflict(async () => {
    const current = await getEnvelopeTemplate(deps, caller, id, access);
    if (input.is_shared !== undefined && input.is_shared !== current.isShared && !access.mayManage(current))
      throw new PermissionDeniedError(
        "Only the template's owner or an account admin may change who sees it (is_shared).",
      );
    if (current.owner !== caller.userId) await checkNewDocumentsSeen(deps, caller, input, current);
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

/** Document templates the PATCH adds must be ones the caller sees too (else 400, as unknown). */
async function checkNewDocumentsSeen(
  deps: { documentTemplates?: TDocumentTemplateCheck },
  caller: TTemplateCaller,
  input: { documents?: { template_id: string }[] },
  current: TEnvelopeTemplate,
): Promise<void> {
  const check = deps.documentTemplates;
  if (!check || !input.documents) return;
  const had = new Set(current.documents.map((d) => d.templateId));
  const seen = await Promise.all(
    input.documents.map(async (d) => {
      const id = d.template_id.toLowerCase();
      return had.has(id) || (await check.outline(caller, id)) !== undefined;
    }),
  );
  const errors: TFieldError[] = input.documents.flatMap((d, i) =>
    seen[i]
      ? []
      : [
          {
            field: `documents[${i}].template_id`,
            message: `No document template has the id "${d.template_id}".`,
          },
        ],
  );
  if (errors.length > 0) throw new ValidationError('Invalid input.', errors);
}
