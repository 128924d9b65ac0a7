import type { TTemplateRequest } from '#shared/schemas/bundle-request';
import type { TDocumentDraft } from '../bundles/build-documents';
import type { TField } from '../bundles/bundle';
import { checkInitialValue } from '../bundles/check-field';
import type { TFieldError } from '../errors';
import type { TAccountStore } from '../ports/accounts';
import type { TDocTemplateStore } from '../ports/templates';
import type { TTemplateCaller } from './doc-template';
import { findDocTemplate } from './get-doc-template';

/**
 * A TemplateRequest of create-bundle (at `path`, `documents[1]`) as a bundle document: every role
 * of the template assigned to a signer of the bundle, its fields' editors moved from roles to
 * those signers, field_values checked as initial values are and applied, and the template's PDF
 * reused (same blob key, no copy). The key is set by the caller.
 */
export async function templateDocuments(
  deps: { templates: TDocTemplateStore; accounts: TAccountStore },
  caller: TTemplateCaller,
  request: TTemplateRequest,
  signerKeys: ReadonlySet<string>,
  path: string,
): Promise<{ draft: TDocumentDraft } | { errors: TFieldError[] }> {
  const template = await findDocTemplate(deps, caller, request.template_id);
  if (!template)
    return {
      errors: [
        {
          field: `${path}.template_id`,
          message: `No document template has the id "${request.template_id}".`,
        },
      ],
    };
  const errors: TFieldError[] = [];
  const roleKeys = new Set(template.roles.map((r) => r.key));
  const signerOf = new Map<string, string>();
  request.assignments.forEach((a, j) => {
    const at = `${path}.assignments[${j}]`;
    if (!roleKeys.has(a.role))
      errors.push({ field: `${at}.role`, message: `The template has no role "${a.role}".` });
    else if (signerOf.has(a.role))
      errors.push({ field: `${at}.role`, message: `The role "${a.role}" is assigned twice.` });
    if (!signerKeys.has(a.signer))
      errors.push({ field: `${at}.signer`, message: `No signer has the key "${a.signer}".` });
    signerOf.set(a.role, a.signer);
  });
  const unassigned = template.roles.filter((r) => !signerOf.has(r.key)).map((r) => r.key);
  if (unassigned.length > 0)
    errors.push({
      field: `${path}.assignments`,
      message: `Every role must be assigned to a signer; not assigned: ${unassigned.join(', ')}.`,
    });

  const values = new Map<string, string>();
  for (const [j, v] of (request.field_values ?? []).entries()) {
    const at = `${path}.field_values[${j}]`;
    const field = template.fields.find((f) => f.key === v.key);
    if (!field) {
      errors.push({ field: `${at}.key`, message: `The template has no field "${v.key}".` });
      continue;
    }
    if (values.has(v.key)) {
      errors.push({ field: `${at}.key`, message: `The field "${v.key}" is given twice.` });
      continue;
    }
    values.set(v.key, v.initial_value);
    if (v.initial_value !== '')
      checkInitialValue(
        {
          kind: field.kind,
          v_pattern: field.vPattern,
          v_regex: field.vRegex,
          v_min: field.vMin,
          v_max: field.vMax,
          formula: field.formula,
        },
        v.initial_value,
        (name, message) => errors.push({ field: `${at}.${name}`, message }),
      );
  }
  if (errors.length > 0) return { errors };

  const fields = template.fields.map((f): TField => {
    const editors: string[] = [];
    for (const e of f.editors) {
      const optional = e.startsWith('-');
      const signer = signerOf.get(optional ? e.slice(1) : e)!;
      editors.push(optional ? `-${signer}` : signer);
    }
    // Two roles of one signer: required wins over optional, each signer once.
    const unique = [...new Set(editors)].filter((e) => !(e.startsWith('-') && editors.includes(e.slice(1))));
    const value = values.get(f.key);
    const { initialValue: _default, ...rest } = f;
    const initial = value ?? f.initialValue;
    return {
      ...rest,
      editors: unique,
      ...(initial !== undefined && initial !== '' ? { initialValue: initial } : {}),
    };
  });
  return {
    draft: {
      blobKey: template.document.blobKey,
      document: {
        key: '',
        name: template.name,
        templateId: template.id,
        sha256: template.document.sha256,
        size: template.document.size,
        pages: template.document.pages,
        fields,
      },
    },
  };
}
