// The settings screens' calls: the account's API keys, signing brands and defaults (/api/v2/).
import type { TConsoleApi } from './api';

export interface TApiKeyRow {
  id: string;
  name: string | null;
  prefix: string;
  user: string;
  created: string;
  revoked: string | null;
}

export interface TBrandRow {
  id: string;
  name: string;
  primary_color: string | null;
  redirect_url: string | null;
  logo_url: string | null;
  palette: { brand: string; on_brand: string; brand_text: string } | null;
  created: string;
}

export interface TReminders {
  send_reminders: boolean;
  reminder_offset: number | null;
  reminder_interval: number | null;
  reminder_expires: number | null;
}

export interface TAccountSettings {
  id: string;
  name: string;
  language: string | null;
  signing_redirect_url: string | null;
  image_page_size: 'letter' | 'a4';
  reminders: TReminders | null;
  features: Record<string, boolean>;
  can_change: boolean;
}

/** What an admin changes: null removes a setting; a reminder setting left out is the service's default. */
export interface TAccountChange {
  language?: string | null;
  signing_redirect_url?: string | null;
  image_page_size?: 'letter' | 'a4';
  reminders?: {
    send_reminders: boolean;
    reminder_offset?: number;
    reminder_interval?: number;
    reminder_expires?: number;
  } | null;
}

/** What a brand form sends: null removes a setting, `logo_b64` replaces the logo. */
export interface TBrandWrite {
  name: string;
  primary_color: string | null;
  redirect_url: string | null;
  logo_url?: string | null;
  logo_b64?: string;
}

const json = async <T>(res: Promise<Response>): Promise<T> => (await res).json() as Promise<T>;

export function settingsApi(api: TConsoleApi) {
  return {
    listKeys: () => json<TApiKeyRow[]>(api.request('GET', '/api/v2/api-keys/')),
    createKey: (name: string) =>
      json<TApiKeyRow & { key: string }>(api.request('POST', '/api/v2/api-keys/', { name })),
    revokeKey: (id: string) => json<TApiKeyRow>(api.request('DELETE', `/api/v2/api-keys/${id}/`)),
    listBrands: () => json<TBrandRow[]>(api.request('GET', '/api/v2/signing-brands/')),
    createBrand: (b: TBrandWrite) => json<TBrandRow>(api.request('POST', '/api/v2/signing-brands/', b)),
    changeBrand: (id: string, b: Partial<TBrandWrite>) =>
      json<TBrandRow>(api.request('PATCH', `/api/v2/signing-brands/${id}/`, b)),
    deleteBrand: async (id: string) => {
      await api.request('DELETE', `/api/v2/signing-brands/${id}/`);
    },
    account: () => json<TAccountSettings>(api.request('GET', '/api/v2/account/')),
    changeAccount: (change: TAccountChange) =>
      json<TAccountSettings>(api.request('PATCH', '/api/v2/account/', change)),
  };
}

export type TSettingsApi = ReturnType<typeof settingsApi>;
