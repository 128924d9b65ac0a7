import * as z from 'zod';
import { ZFormFieldEditorsSchema } from './bundle-request';
import { optional, zBoolean, zList, zText } from './common';
import { FORM_FIELD_EDITORS_DESCRIPTION, FORM_FIELDS_DESCRIPTION, zKey } from './field';

export const TEMPLATE_LIMITS = { roles: 20 } as const;

export const ZTemplateRoleSchema = z.object({ key: zKey(2, 12), label: optional(zText(255)) });

const roles = zList(ZTemplateRoleSchema, { max: TEMPLATE_LIMITS.roles });
// Fields are checked as a DocumentRequest's fields are (create-doc-template.ts renames
// default_value and editor_roles to initial_value and editors first).
const rawList = optional(zList(z.record(z.string(), z.unknown())));

/** POST /templates/: the document as a DocumentRequest gives it, plus the template's own parts. */
export const ZDocTemplateCreateSchema = z.object({
  name: optional(zText(255)),
  is_shared: optional(zBoolean),
  team: optional(z.uuid('Must be a valid UUID.')),
  roles: optional(roles),
  fields: rawList,
  auto_placements: rawList,
  /** As a DocumentRequest's: fields from "{{…}}" tags in the PDF's text. */
  text_tags: optional(zBoolean),
  /** As a DocumentRequest's: the PDF's own form fields become fields, given to roles. */
  form_fields: optional(zBoolean.describe(FORM_FIELDS_DESCRIPTION)),
  form_field_editors: optional(ZFormFieldEditorsSchema.describe(FORM_FIELD_EDITORS_DESCRIPTION)),
});

/** PATCH /templates/{id}/: what is given replaces what is stored; the file stays. */
export const ZDocTemplatePatchSchema = z.object({
  name: optional(zText(255)),
  is_shared: optional(zBoolean),
  team: z.union([z.uuid('Must be a valid UUID.'), z.null()]).optional(),
  roles: optional(roles),
  fields: rawList,
});
