// The Send screen's calls: the lists it starts from (document and envelope templates, Persons),
// creating the draft, and the editor's link for it. The create goes out as multipart (the
// `bundle_request` JSON part and the uploads as `files[N]`, as the official clients send it), so
// it is made here rather than through the JSON-only `api.request`; it carries the session's CSRF
// token the same way.
import { ApiError, type TConsoleApi } from './api';
import type { TFieldErrors } from './send-draft';

export interface TDocTemplateRow {
  id: string;
  name: string;
  roles: { key: string; label: string }[];
}

export interface TEnvelopeTemplateRow {
  id: string;
  name: string;
  signers: { key: string; label: string; order: number }[];
}

export interface TPersonRow {
  id: string;
  name: string;
  channels: { email: string; phone: string }[];
}

/** A draft as the editor screen needs it. */
export interface TDraftBundle {
  id: string;
  label: string;
  status: string;
}

/** A refused create: the API's message and its errors by field (`packets[1].email`). */
export class CreateRefused extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly fields: TFieldErrors,
  ) {
    super(`${status} ${code}`);
  }
}

const json = async <T>(res: Response): Promise<T> => (await res.json()) as T;

export function sendApi(api: TConsoleApi, csrfToken: string) {
  return {
    docTemplates: async () =>
      json<TDocTemplateRow[]>(await api.request('GET', '/api/v2/templates/?per_page=100')),
    envelopeTemplates: async () =>
      json<TEnvelopeTemplateRow[]>(await api.request('GET', '/api/v2/envelope-templates/?per_page=100')),
    searchPersons: async (text: string) =>
      json<TPersonRow[]>(
        await api.request('GET', `/api/v2/persons/?${new URLSearchParams({ search: text, per_page: '8' })}`),
      ),
    bundle: async (id: string) =>
      json<TDraftBundle>(await api.request('GET', `/api/v2/bundles/${encodeURIComponent(id)}/`)),
    /** The editor's one-time link for a draft. */
    prepareUrl: async (id: string) =>
      json<{ url: string; expires: string }>(
        await api.request('POST', `/api/v2/bundles/${encodeURIComponent(id)}/prepare_url/`, {}),
      ),

    /** Creates the draft; a refusal is a CreateRefused with the API's field errors. */
    async createDraft(request: Record<string, unknown>, files: File[]): Promise<TDraftBundle> {
      const form = new FormData();
      form.append('bundle_request', JSON.stringify(request));
      for (const [i, file] of files.entries()) form.append(`files[${i}]`, file, file.name);
      const res = await fetch('/api/v2/bundles/', {
        method: 'POST',
        headers: { accept: 'application/json', 'x-csrf-token': csrfToken },
        credentials: 'same-origin',
        body: form,
      });
      if (res.ok) return json<TDraftBundle>(res);
      const body = await res.json().catch(() => ({}));
      const code = typeof body?.code === 'string' ? body.code : 'error';
      if (res.status === 401) throw new ApiError(401, code);
      const fields: TFieldErrors = {};
      for (const e of Array.isArray(body?.errors) ? body.errors : []) {
        if (typeof e?.field !== 'string' || typeof e?.message !== 'string') continue;
        fields[e.field] = fields[e.field] ? `${fields[e.field]} ${e.message}` : e.message;
      }
      // A refusal without field errors (a body too large, say) is shown as the whole form's.
      if (Object.keys(fields).length === 0 && typeof body?.message === 'string') fields[''] = body.message;
      throw new CreateRefused(res.status, code, fields);
    },
  };
}

export type TSendApi = ReturnType<typeof sendApi>;
