import type { TField } from '#shared/domain/bundles/bundle';
import type { TDocTemplate } from '#shared/domain/templates/doc-template';
import type { TDocTemplateResponse } from '#shared/schemas/responses/doc-template';

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
  ...(f.readOnly ? { read_only: true as const } : {}),
  // This service's own, so only on a field that has one: answers stay as they were otherwise.
  ...(f.formula !== undefined ? { formula: f.formula } : {}),
  // Only on fields that have them: a client that never sends conditions sees none.
  ...(f.visibleWhen ? { visible_when: f.visibleWhen } : {}),
  ...(f.requiredWhen ? { required_when: f.requiredWhen } : {}),
});

/** A Document Template on the wire (spec "Document Template", swagger DocumentTemplate). */
export function toDocTemplateResponse(t: TDocTemplate, fileUrl: string): TDocTemplateResponse {
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
