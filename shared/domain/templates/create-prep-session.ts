import { ZPrepSessionCreateSchema } from '#shared/schemas/prep-session';
import { ValidationError } from '../errors';
import { parseInput } from '../parse-input';
import type { TPrepSessionStore } from '../ports/templates';
import { hashToken, newToken } from '../tokens';
import { createDocTemplate, documentSource, isGiven, type TDocTemplateDeps } from './create-doc-template';
import type { TDocTemplate, TTemplateCaller } from './doc-template';
import { getDocTemplate } from './get-doc-template';
import { disallowedTags, PREP_SESSION_TTL_SECONDS } from './prep-session';

/** What only a new template takes: an existing one is changed on the page (or by PATCH). */
const NEW_TEMPLATE_KEYS = [
  'name',
  'is_shared',
  'team',
  'roles',
  'fields',
  'auto_placements',
  'text_tags',
  'form_fields',
  'form_field_editors',
] as const;

/**
 * POST /templates/preparation_session/: a link (43 base62 characters, ~256 bits, stored as its
 * hash, one hour) to the public page that prepares a template: one the caller may see, or one made
 * now from a document exactly as POST /templates/ makes it (`created` tells which).
 */
export async function createPrepSession(
  deps: TDocTemplateDeps & { sessions: TPrepSessionStore },
  caller: TTemplateCaller,
  body: unknown,
  files: ReadonlyMap<number, Buffer>,
  publicBaseUrl: string,
): Promise<{ url: string; expires: string; template: TDocTemplate; created: boolean }> {
  const input = parseInput(ZPrepSessionCreateSchema, body);
  const {
    template_id: _id,
    allowed_data_flow_tags: _tags,
    redirect_url: _url,
    ...rest
  } = body as Record<string, unknown>;
  const hasDocument = Object.keys(documentSource(rest)).length > 0;
  if (input.template_id && hasDocument)
    throw new ValidationError('Invalid input.', [
      {
        field: 'template_id',
        message: 'Give either template_id or a document for a new template, not both.',
      },
    ]);
  if (!input.template_id && !hasDocument)
    throw new ValidationError('Invalid input.', [
      {
        field: 'template_id',
        message: 'Give template_id, or a document (file_url, file_b64 or file_index) for a new template.',
      },
    ]);

  let template: TDocTemplate;
  if (input.template_id) {
    const extra = NEW_TEMPLATE_KEYS.filter((k) => isGiven(rest[k]));
    if (extra.length > 0)
      throw new ValidationError(
        'Invalid input.',
        extra.map((k) => ({ field: k, message: 'Only for a new template (without template_id).' })),
      );
    template = await getDocTemplate(deps, caller, input.template_id);
  } else {
    const tagErrors = disallowedTags(rest.fields, input.allowed_data_flow_tags);
    if (tagErrors.length > 0) throw new ValidationError('Invalid input.', tagErrors);
    template = await createDocTemplate(deps, caller, rest, files);
  }

  const token = newToken();
  const now = deps.clock.now();
  const expires = new Date(now.getTime() + PREP_SESSION_TTL_SECONDS * 1000).toISOString();
  await deps.sessions.create({
    hash: hashToken(token),
    accountId: caller.accountId,
    userId: caller.userId,
    templateId: template.id,
    ...(input.allowed_data_flow_tags ? { allowedTags: [...new Set(input.allowed_data_flow_tags)] } : {}),
    ...(input.redirect_url ? { redirectUrl: input.redirect_url } : {}),
    created: now.toISOString(),
    expires,
  });
  return {
    url: `${publicBaseUrl.replace(/\/$/, '')}/prepare/${token}`,
    expires,
    template,
    created: !input.template_id,
  };
}
