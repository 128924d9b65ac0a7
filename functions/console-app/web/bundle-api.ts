// The calls of a bundle's page, typed as the API answers them (shared/schemas/responses/bundle.ts):
// the bundle, its events, its files, and what a sender may do to it and its packets.
import type { TConsoleApi } from './api';

export interface TPacket {
  id: string;
  name: string;
  email: string;
  phone: string;
  deliver_via: 'email' | 'phone' | 'embed' | 'kiosk';
  order: number | null;
  status: string;
  completed_at: string | null;
  last_accessed_at: string | null;
  auth_sms: boolean;
  auth_selfie: boolean;
  auth_id: boolean;
}

export interface TBundle {
  id: string;
  label: string;
  status: string;
  in_order: boolean;
  requester_name: string;
  requester_email: string;
  created: string;
  sent: string | null;
  completed_at: string | null;
  expires: string | null;
  docs_ready: boolean;
  send_reminders: boolean;
  reminder_offset: number | null;
  reminder_interval: number | null;
  packets: TPacket[];
}

export interface TEvent {
  kind: string;
  description: string;
  timestamp: string;
  packet_id: string | null;
  actor: { type: string; id: string | null; name: string | null } | null;
}

export interface TFile {
  file_url: string;
  expires: string;
  doc_key: string;
  kind: 'final' | 'attachment' | 'certificate' | 'interim' | 'original';
  name: string;
  packet_id?: string;
}

/** What the bundle's PATCH may change from the page. */
export interface TBundleChange {
  label?: string;
  expires?: string;
  send_reminders?: boolean;
}

const at = (id: string) => `/api/v2/bundles/${encodeURIComponent(id)}`;
const packetAt = (id: string) => `/api/v2/packets/${encodeURIComponent(id)}`;

export function bundleApi(api: TConsoleApi) {
  const json = async <T>(res: Promise<Response>): Promise<T> => (await res).json() as Promise<T>;
  return {
    bundle: (id: string) => json<TBundle>(api.request('GET', `${at(id)}/`)),
    events: (id: string) => json<TEvent[]>(api.request('GET', `${at(id)}/events/?include_actor=true`)),
    files: (id: string) => json<TFile[]>(api.request('GET', `${at(id)}/files/`)),
    change: (id: string, change: TBundleChange) => json<TBundle>(api.request('PATCH', `${at(id)}/`, change)),
    cancel: (id: string) => json<TBundle>(api.request('PUT', `${at(id)}/cancel/`)),
    remind: (packetId: string) => json<TPacket>(api.request('PUT', `${packetAt(packetId)}/remind/`)),
    /** A one-time link to sign now, for a signer who signs in the sender's app. */
    embedUrl: (packetId: string) =>
      json<{ url: string; expires: string }>(api.request('POST', `${packetAt(packetId)}/embed_url/`, {})),
    /** Another person signs this packet: the earlier signer's links end, the new one is sent the request. */
    handOver: (packetId: string, to: { name: string; email?: string; phone?: string }) =>
      json<TPacket>(api.request('POST', `${packetAt(packetId)}/reassign/`, to)),
  };
}

export type TBundleApi = ReturnType<typeof bundleApi>;
