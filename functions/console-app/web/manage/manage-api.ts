// The Manage screens' calls: document and envelope templates, Persons and webhooks, each the
// API's own route read with the session (no route here that an API key could not call too).
import type { TConsoleApi } from '../api';
import { parsePagination, type TPagination } from '../pagination';

export { WEBHOOK_EVENT_TYPES } from './event-types';

export interface TListPage<T> {
  items: T[];
  pagination: TPagination;
}

export interface TDocTemplate {
  id: string;
  name: string;
  is_shared: boolean;
  team: string | null;
  owner: string;
  page_count: number;
  file_url: string;
  roles: { key: string; label: string }[];
  fields: { key: string; kind: string; editor_roles: string[] }[];
  created: string;
  updated: string;
}

export interface TEnvelopeTemplate {
  id: string;
  name: string;
  description: string;
  is_shared: boolean;
  is_portal: boolean;
  allow_direct_signing: boolean;
  enabled: boolean;
  documents: { key: string; name: string; order: number; template_id: string }[];
  signers: { key: string; label: string; order: number }[];
  smart_link_url: string;
  created: string;
}

export interface TPersonChannel {
  id?: string;
  kind: 'em' | 'mp';
  email: string;
  phone: string;
}

export interface TPerson {
  id: string;
  name: string;
  metadata: Record<string, unknown>;
  is_user: boolean;
  channels: TPersonChannel[];
}

export interface TWebhook {
  id: string;
  url: string;
  enabled: boolean;
  json: boolean;
  event_types: string[];
}

/** One delivery attempt of an event to a webhook, as the deliveries list answers it. */
export interface TWebhookDelivery {
  id: string;
  webhook: string;
  webhook_event: string;
  event_type: string;
  timestamp: string;
  /** The receiver's HTTP status, 0 when it did not answer. */
  status: number;
  success: boolean;
  message: string;
}

export const PER_PAGE = 25;

/** The most a page of a list may hold (the API's cap). */
export const MAX_PER_PAGE = 100;

async function listOf<T>(api: TConsoleApi, path: string, query: Record<string, string | number>) {
  const search = new URLSearchParams({ per_page: String(PER_PAGE) });
  for (const [k, v] of Object.entries(query)) if (v !== '') search.set(k, String(v));
  const res = await api.request('GET', `${path}?${search}`);
  return {
    items: (await res.json()) as T[],
    pagination: parsePagination(res.headers.get('x-blueink-pagination')),
  } satisfies TListPage<T>;
}

const json = async <T>(res: Promise<Response>): Promise<T> => (await res).json() as Promise<T>;

/** A file's bytes as base64, as the API's `file_b64` takes them. */
export async function base64Of(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

export function manageApi(api: TConsoleApi) {
  return {
    templates: {
      list: (page: number, perPage = PER_PAGE) =>
        listOf<TDocTemplate>(api, '/api/v2/templates/', { page, per_page: perPage }),
      get: (id: string) => json<TDocTemplate>(api.request('GET', `/api/v2/templates/${id}/`)),
      create: async (name: string, file: Blob) =>
        json<TDocTemplate>(
          api.request('POST', '/api/v2/templates/', {
            name,
            file_b64: await base64Of(file),
            text_tags: true,
          }),
        ),
      rename: (id: string, name: string) =>
        json<TDocTemplate>(api.request('PATCH', `/api/v2/templates/${id}/`, { name })),
      remove: async (id: string) => {
        await api.request('DELETE', `/api/v2/templates/${id}/`);
      },
      /** A one-hour link to the template's preparation page. */
      preparationLink: (id: string) =>
        json<{ url: string; expires: string }>(
          api.request('POST', '/api/v2/templates/preparation_session/', { template_id: id }),
        ),
    },
    envelopes: {
      list: (page: number) => listOf<TEnvelopeTemplate>(api, '/api/v2/envelope-templates/', { page }),
      get: (id: string) => json<TEnvelopeTemplate>(api.request('GET', `/api/v2/envelope-templates/${id}/`)),
      create: (body: Record<string, unknown>) =>
        json<TEnvelopeTemplate>(api.request('POST', '/api/v2/envelope-templates/', body)),
      update: (id: string, body: Record<string, unknown>) =>
        json<TEnvelopeTemplate>(api.request('PATCH', `/api/v2/envelope-templates/${id}/`, body)),
      remove: async (id: string) => {
        await api.request('DELETE', `/api/v2/envelope-templates/${id}/`);
      },
    },
    persons: {
      list: (search: string, page: number) => listOf<TPerson>(api, '/api/v2/persons/', { search, page }),
      get: (id: string) => json<TPerson>(api.request('GET', `/api/v2/persons/${id}/`)),
      create: (body: Omit<TPerson, 'id' | 'is_user'>) =>
        json<TPerson>(api.request('POST', '/api/v2/persons/', body)),
      replace: (id: string, body: Omit<TPerson, 'id' | 'is_user'>) =>
        json<TPerson>(api.request('PUT', `/api/v2/persons/${id}/`, body)),
      remove: async (id: string) => {
        await api.request('DELETE', `/api/v2/persons/${id}/`);
      },
    },
    webhooks: {
      list: (page: number) => listOf<TWebhook>(api, '/api/v2/webhooks/', { page }),
      get: (id: string) => json<TWebhook>(api.request('GET', `/api/v2/webhooks/${id}/`)),
      create: (body: Omit<TWebhook, 'id' | 'json'>) =>
        json<TWebhook>(api.request('POST', '/api/v2/webhooks/', body)),
      update: (id: string, body: Partial<Omit<TWebhook, 'id'>>) =>
        json<TWebhook>(api.request('PATCH', `/api/v2/webhooks/${id}/`, body)),
      remove: async (id: string) => {
        await api.request('DELETE', `/api/v2/webhooks/${id}/`);
      },
      deliveries: (webhook: string, page: number) =>
        listOf<TWebhookDelivery>(api, '/api/v2/webhooks/deliveries/', { webhook, page }),
      /** Sends a delivery's event to its webhook again (a new delivery is logged). */
      redeliver: async (eventId: string) => {
        await api.request('POST', `/api/v2/webhooks/events/${eventId}/redeliver/`);
      },
      secret: () =>
        json<{ secret: string; create_date: string }>(api.request('GET', '/api/v2/webhooks/secret/')),
      regenerateSecret: () =>
        json<{ secret: string; create_date: string }>(
          api.request('POST', '/api/v2/webhooks/secret/regenerate/'),
        ),
    },
  };
}

export type TManageApi = ReturnType<typeof manageApi>;
