import * as z from 'zod';
import type { TField } from '../domain/bundles/bundle';
import type { TDocTemplate } from '../domain/templates/doc-template';
import { TEMPLATE_LIMITS } from '../domain/templates/doc-template';
import { optional, zBoolean, zList, zText } from './common';
import { zKey } from './field';

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
});

/** PATCH /templates/{id}/: what is given replaces what is stored; the file stays. */
export const ZDocTemplatePatchSchema = z.object({
  name: optional(zText(255)),
  is_shared: optional(zBoolean),
  team: z.union([z.uuid('Must be a valid UUID.'), z.null()]).optional(),
  roles: optional(roles),
  fields: rawList,
});

const fieldResponse = (f: TField) => ({
  key: f.key,
  kind: f.kind,
  label: f.label,
  required: f.required,
  page: f.page ?? null,
  x: f.x,
  y: f.y,
  w: f.w,
  h: f.h,
  v_pattern: f.vPattern ?? null,
  v_min: f.vMin ?? null,
  v_max: f.vMax ?? null,
  v_attachment_types: f.vAttachmentTypes ?? [],
  v_regex: f.vRegex ?? null,
  v_regex_msg: f.vRegexMsg ?? null,
  format: f.format,
  default_value: f.initialValue ?? null,
  editor_roles: f.editors,
  tag: f.tag ?? null,
});

/** A Document Template on the wire (spec "Document Template", swagger DocumentTemplate). */
export function toDocTemplateResponse(t: TDocTemplate, fileUrl: string) {
  return {
    id: t.id,
    name: t.name,
    is_shared: t.isShared,
    file_url: fileUrl,
    team: t.team ?? null,
    owner: t.owner,
    page_count: t.document.pages.length,
    roles: t.roles.map((r) => ({ key: r.key, label: r.label })),
    fields: t.fields.map(fieldResponse),
    created: t.created,
    updated: t.updated,
  };
}
