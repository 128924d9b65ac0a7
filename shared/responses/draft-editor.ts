import type { TBundle, TDocument, TField } from '#shared/domain/bundles/bundle';
import type { TDraftSession } from '#shared/domain/bundles/draft-prep-session';

/** A field as the bundle API takes it (POST /bundles/ documents[].fields[]), empty parts left out. */
export function toFieldRequest(f: TField) {
  return {
    key: f.key,
    kind: f.kind,
    label: f.label,
    required: f.required,
    ...(f.page !== undefined ? { page: f.page } : {}),
    x: f.x,
    y: f.y,
    w: f.w,
    h: f.h,
    ...(f.vPattern ? { v_pattern: f.vPattern } : {}),
    ...(f.vMin !== undefined ? { v_min: f.vMin } : {}),
    ...(f.vMax !== undefined ? { v_max: f.vMax } : {}),
    ...(f.vAttachmentTypes?.length ? { v_attachment_types: f.vAttachmentTypes } : {}),
    ...(f.vRegex !== undefined ? { v_regex: f.vRegex } : {}),
    ...(f.vRegexMsg !== undefined ? { v_regex_msg: f.vRegexMsg } : {}),
    ...(f.format ? { format: f.format } : {}),
    ...(f.initialValue !== undefined ? { initial_value: f.initialValue } : {}),
    ...(f.readOnly ? { read_only: true } : {}),
    editors: f.editors,
    ...(f.tag ? { tag: f.tag } : {}),
    ...(f.formula !== undefined ? { formula: f.formula } : {}),
    ...(f.visibleWhen ? { visible_when: f.visibleWhen } : {}),
    ...(f.requiredWhen ? { required_when: f.requiredWhen } : {}),
  };
}

/**
 * The draft as the editor page reads it: its signers (the roles), its documents with their pages
 * and fields, and where each PDF is read from (`file_url` null: through the page's own API).
 */
export function toDraftEditorResponse(
  session: TDraftSession,
  bundle: TBundle,
  documents: TDocument[],
  fileUrls: (string | null)[],
) {
  return {
    bundle: {
      id: bundle.id,
      label: bundle.label,
      version: bundle.version,
      in_order: bundle.inOrder,
      packets: bundle.packets.map((p) => ({
        key: p.key,
        name: p.name,
        email: p.email ?? null,
        phone: p.phone ?? null,
        order: p.order,
      })),
      documents: toDraftDocuments(documents).map((d, i) => ({ ...d, file_url: fileUrls[i] ?? null })),
    },
    expires: session.expires,
  };
}

/** The draft's documents with their pages and fields, as the editor reads and saves them. */
export const toDraftDocuments = (documents: TDocument[]) =>
  documents.map((d) => ({ key: d.key, name: d.name, pages: d.pages, fields: d.fields.map(toFieldRequest) }));
