// What the Send screen holds while the reader fills it in, and the create request it becomes: one
// place that knows the API's shape of a draft (uploads as `files[N]`, a document template's roles
// given to the signers in order, an envelope template's roles filled by key) and which input an
// error of the API's (`packets[1].email`) belongs beside.

/** Where the documents come from. */
export type TSource = 'upload' | 'template' | 'envelope';

export interface TSigner {
  /** Stable for the screen's life (inputs' ids), whatever the order. */
  uid: number;
  name: string;
  email: string;
  phone: string;
  /** A signing language, or '' for the account's. */
  language: string;
  authSms: boolean;
  authSelfie: boolean;
  authId: boolean;
  /** The Person it was picked from, if any. */
  personId?: string;
  /** The template's role this signer fills (templates only). */
  role?: { key: string; label: string };
  /** What the packet does (the request's packet `role`); absent or 'signer' is left out. */
  acts?: TPacketRole;
}

/** A packet's `role` (shared/domain/bundles/packet-roles.ts; browser code may not import it). */
export type TPacketRole = 'signer' | 'approver' | 'viewer';
export const PACKET_ROLES: readonly TPacketRole[] = ['signer', 'approver', 'viewer'];

export interface TUpload {
  uid: number;
  file: File;
  /** Turn the PDF's own form fields into fields (the document's `form_fields`). */
  formFields?: boolean;
}

/** A field value for a template's documents: a field's key or label, and its value. */
export interface TValueRow {
  uid: number;
  name: string;
  value: string;
}

export interface TDraftForm {
  source: TSource;
  uploads: TUpload[];
  templateId: string;
  envelopeId: string;
  signers: TSigner[];
  inOrder: boolean;
  label: string;
  emailSubject: string;
  emailMessage: string;
  /** Templates only: values by field key or label (the request's `data`). */
  values?: TValueRow[];
}

/** The API's errors by its field names; '' is the whole request's. */
export type TFieldErrors = Record<string, string>;

/**
 * The API's limits on uploads (shared/schemas/bundle-request.ts BUNDLE_LIMITS; the browser code
 * may not import it, test/unit/send-draft.test.ts holds the two equal): at most 20 documents, and
 * one request of at most 6 MB, so the files together must leave room for the JSON beside them.
 */
export const UPLOAD_LIMITS = {
  documents: 20,
  requestBytes: 6 * 1024 * 1024,
  /** What the request's other parts (the JSON, the parts' headers) are allowed. */
  reserveBytes: 64 * 1024,
} as const;

/** The kinds of file the API takes as documents: PDFs, and JPEG and PNG images made into a page. */
export const DOCUMENT_TYPES: Record<string, RegExp> = {
  'application/pdf': /\.pdf$/i,
  'image/jpeg': /\.jpe?g$/i,
  'image/png': /\.png$/i,
};

/** A PDF (only a PDF can hold form fields), by its type, else its name. */
export const isPdf = (file: { name: string; type: string }) =>
  file.type ? file.type === 'application/pdf' : DOCUMENT_TYPES['application/pdf']!.test(file.name);

/** The file input's `accept`. */
export const ACCEPT = '.pdf,.jpg,.jpeg,.png,application/pdf,image/jpeg,image/png';

export type TFileProblem = 'type' | 'size' | 'count';

/**
 * Why a file cannot be added to those already chosen, or undefined. The type is judged by the
 * browser's MIME type, else the name's extension (some systems give no type).
 */
export function fileProblem(
  file: { name: string; type: string; size: number },
  chosen: readonly { size: number }[],
): TFileProblem | undefined {
  const byType = file.type ? file.type in DOCUMENT_TYPES : false;
  const byName = Object.values(DOCUMENT_TYPES).some((re) => re.test(file.name));
  if (!(byType || (!file.type && byName))) return 'type';
  if (chosen.length >= UPLOAD_LIMITS.documents) return 'count';
  const total = chosen.reduce((sum, f) => sum + f.size, file.size);
  if (total > UPLOAD_LIMITS.requestBytes - UPLOAD_LIMITS.reserveBytes) return 'size';
  return undefined;
}

/** The most the chosen files may weigh together, in whole megabytes for people. */
export const UPLOAD_MEGABYTES = Math.floor(UPLOAD_LIMITS.requestBytes / (1024 * 1024));

/** A signer's key in the request: the role's for a template, else by position. */
export const signerKey = (s: TSigner, i: number) => s.role?.key ?? `signer-${i + 1}`;

const given = (o: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== '' && v !== undefined && v !== false));

/** The create request of a draft (its JSON part); the files are the uploads in their order. */
export function draftRequest(form: TDraftForm): Record<string, unknown> {
  const bundle = given({
    status: 'dr',
    label: form.label.trim(),
    email_subject: form.emailSubject.trim(),
    email_message: form.emailMessage.trim(),
  });
  // A template's fields filled by key or label; a row without a name is left out.
  const values = form.source === 'upload' ? [] : (form.values ?? []).filter((v) => v.name.trim() !== '');
  if (values.length > 0) bundle.data = Object.fromEntries(values.map((v) => [v.name.trim(), v.value]));
  if (form.source === 'envelope') {
    // An envelope template's roles carry their own order and authentication, and the template
    // says whether they sign in order: a value sent would override it.
    const packets = form.signers.map((s, i) =>
      given({
        key: signerKey(s, i),
        name: s.name.trim(),
        email: s.email.trim(),
        phone: s.phone.trim(),
        language: s.language,
      }),
    );
    return { ...bundle, envelope_template: { template_id: form.envelopeId }, packets };
  }
  bundle.in_order = form.inOrder;
  const packets = form.signers.map((s, i) =>
    given({
      key: signerKey(s, i),
      name: s.name.trim(),
      email: s.email.trim(),
      phone: s.phone.trim(),
      language: s.language,
      auth_sms: s.authSms,
      auth_selfie: s.authSelfie,
      auth_id: s.authId,
      person_id: s.personId,
      // Only a role other than the default is sent, so a plain draft's request stays as it was.
      role: s.acts === 'signer' ? undefined : s.acts,
    }),
  );
  // A PDF's own form fields go to the only signer by themselves; with several packets, to the
  // first who signs (approvers and viewers fill nothing), and the sender gives each to its signer
  // in the editor that opens next. A name that starts with a signer's key still goes to them.
  const first = form.signers.findIndex((s) => (s.acts ?? 'signer') === 'signer');
  const formFieldEditors =
    form.signers.length > 1 && first >= 0
      ? { '*': signerKey(form.signers[first] as TSigner, first) }
      : undefined;
  const documents =
    form.source === 'template'
      ? [
          {
            template_id: form.templateId,
            assignments: form.signers.flatMap((s, i) =>
              s.role ? [{ role: s.role.key, signer: signerKey(s, i) }] : [],
            ),
          },
        ]
      : form.uploads.map((u, i) => ({
          key: `doc-${i + 1}`,
          name: u.file.name.slice(0, 255),
          file_index: i,
          ...(u.formFields
            ? { form_fields: true, ...(formFieldEditors ? { form_field_editors: formFieldEditors } : {}) }
            : {}),
        }));
  return { ...bundle, packets, documents };
}

/** The signer inputs an API field names, by the field's last part. */
const SIGNER_INPUTS: Record<string, string> = {
  name: 'name',
  email: 'email',
  phone: 'phone',
  language: 'language',
  auth_sms: 'auth',
  auth_selfie: 'auth',
  auth_id: 'auth',
  person_id: 'name',
  role: 'acts',
  key: 'name',
  deliver_via: 'email',
};

/** The id of the input (or group) beside which an API field's error shows; undefined: the form's. */
export function inputOf(field: string, form: TDraftForm): string | undefined {
  const top: Record<string, string> = {
    label: 'send-label',
    email_subject: 'send-subject',
    email_message: 'send-message',
    in_order: 'send-order',
    packets: 'send-signers',
    documents: form.source === 'upload' ? 'send-files' : 'send-template',
    'envelope_template.template_id': 'send-template',
    envelope_template: 'send-template',
  };
  if (top[field]) return top[field];
  const signer = /^packets\[(\d+)\](?:\.(\w+))?/.exec(field);
  if (signer) {
    const s = form.signers[Number(signer[1])];
    if (!s) return 'send-signers';
    return `signer-${s.uid}-${SIGNER_INPUTS[signer[2] ?? ''] ?? 'name'}`;
  }
  const doc = /^(?:documents|files)\[(\d+)\]/.exec(field);
  if (doc) {
    if (form.source !== 'upload') return 'send-template';
    const u = form.uploads[Number(doc[1])];
    return u ? `send-doc-${u.uid}` : 'send-files';
  }
  if (/^envelope_template/.test(field)) return 'send-template';
  // `data.<name>`: beside the name of the row that gave it.
  if (field.startsWith('data.')) {
    const row = (form.values ?? []).find((v) => v.name.trim() === field.slice(5));
    return row ? `send-value-${row.uid}-name` : 'send-values';
  }
  return undefined;
}

/** The API's errors placed beside inputs, and those that name none (shown above the button). */
export function placeErrors(
  fields: TFieldErrors,
  form: TDraftForm,
): { beside: TFieldErrors; rest: string[] } {
  const beside: TFieldErrors = {};
  const rest: string[] = [];
  for (const [field, message] of Object.entries(fields)) {
    const id = inputOf(field, form);
    if (id) beside[id] = beside[id] ? `${beside[id]} ${message}` : message;
    else rest.push(message);
  }
  return { beside, rest };
}

/** Moves the item at `from` by `by` places (−1 up, +1 down); unchanged at the ends. */
export function moved<T>(list: readonly T[], from: number, by: number): T[] {
  const to = from + by;
  if (to < 0 || to >= list.length) return [...list];
  const next = [...list];
  const [item] = next.splice(from, 1) as [T];
  next.splice(to, 0, item);
  return next;
}
