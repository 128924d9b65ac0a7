import { ZDocumentRequestSchema } from '#shared/schemas/bundle-request';
import { ZDocTemplatePatchSchema } from '#shared/schemas/doc-template';
import { templateAccess } from '../accounts/template-access';
import { placeFields } from '../bundles/build-documents';
import type { TField } from '../bundles/bundle';
import { conditionErrors } from '../bundles/check-conditions';
import { ConflictError, PermissionDeniedError, type TFieldError, ValidationError } from '../errors';
import { parseInput, parseInputAt } from '../parse-input';
import type { TAccountStore } from '../ports/accounts';
import type { TPdfTools } from '../ports/files';
import type { TClock } from '../ports/system';
import type { TDocTemplateStore } from '../ports/templates';
import { retryOnConflict } from '../retry-on-conflict';
import { checkRoles, checkTeam } from './create-doc-template';
import type { TDocTemplate, TTemplateCaller } from './doc-template';
import { getDocTemplate } from './get-doc-template';
import { asDocumentField, asTemplateError } from './template-input';

/**
 * PATCH /templates/{id}/: name, is_shared, team, roles and fields given replace the stored ones
 * (the PDF stays). Fields are checked as on create; new roles must still cover every stored field.
 * Whoever may use the template may change it; changing who sees it is for its owner and the
 * account's admins (403 otherwise).
 */
export async function updateDocTemplate(
  deps: { templates: TDocTemplateStore; accounts: TAccountStore; pdf: TPdfTools; clock: TClock },
  caller: TTemplateCaller,
  id: string,
  body: unknown,
  /** `expectedVersion`: refuse (409) when the template changed since the caller read it. */
  opts: { expectedVersion?: number } = {},
): Promise<TDocTemplate> {
  const input = parseInput(ZDocTemplatePatchSchema, body);
  const errors: TFieldError[] = [];
  const roles = input.roles ? checkRoles(input.roles, errors) : undefined;
  await checkTeam(deps.accounts, caller.accountId, input.team ?? undefined, errors);
  if (errors.length > 0) throw new ValidationError('Invalid input.', errors);

  const access = await templateAccess(deps, caller);
  return retryOnConflict(async () => {
    const current = await getDocTemplate(deps, caller, id, access);
    if (opts.expectedVersion !== undefined && current.version !== opts.expectedVersion)
      throw new ConflictError('The template was changed since it was read; reload it and try again.');
    const widens =
      (input.is_shared !== undefined && input.is_shared !== current.isShared) ||
      (input.team !== undefined && (input.team ?? undefined) !== current.team);
    if (widens && !access.mayManage(current))
      throw new PermissionDeniedError(
        "Only the template's owner or an account admin may change who sees it (is_shared, team).",
      );
    const nextRoles = roles ?? current.roles;
    const roleKeys = new Set(nextRoles.map((r) => r.key));
    let fields: TField[] = current.fields;
    if (input.fields) {
      fields = await checkFields(deps.pdf, input.fields, current, roleKeys);
    } else if (roles) {
      const stale: TFieldError[] = [];
      current.fields.forEach((f, i) => {
        f.editors.forEach((e, j) => {
          const key = e.startsWith('-') ? e.slice(1) : e;
          if (!roleKeys.has(key))
            stale.push({
              field: 'roles',
              message: `Field "${f.key}" (fields[${i}].editor_roles[${j}]) names the role "${key}", which is gone.`,
            });
        });
      });
      if (stale.length > 0) throw new ValidationError('Invalid input.', stale);
    }
    const next: TDocTemplate = {
      ...current,
      name: input.name ?? current.name,
      isShared: input.is_shared ?? current.isShared,
      roles: nextRoles,
      fields,
      updated: deps.clock.now().toISOString(),
      version: current.version + 1,
    };
    if (input.team === null) delete next.team;
    else if (input.team) next.team = input.team;
    await deps.templates.save(next, current);
    return next;
  });
}

async function checkFields(
  pdf: TPdfTools,
  given: Record<string, unknown>[],
  current: TDocTemplate,
  roleKeys: ReadonlySet<string>,
): Promise<TField[]> {
  const parsed = parseInputAt(ZDocumentRequestSchema, { fields: given.map(asDocumentField) }, [
    'documents',
    0,
  ]);
  if ('errors' in parsed) throw asTemplateError(new ValidationError('Invalid input.', parsed.errors));
  try {
    // No auto placements here: the stored pages are all a field is checked against.
    const fields = await placeFields(
      pdf,
      parsed.data,
      Buffer.alloc(0),
      'documents[0]',
      current.document.pages.length,
      roleKeys,
    );
    const problems = conditionErrors([{ key: '', fields }], () => 'documents[0]');
    if (problems.length > 0) throw new ValidationError('Invalid input.', problems);
    return fields;
  } catch (err) {
    throw asTemplateError(err);
  }
}
