// An account's API keys, signing brands and defaults as the API answers them.
import type { TApiKey, TBrand } from '#shared/domain/accounts/account';
import type { TAccountSettings } from '#shared/domain/accounts/account-settings';
import { brandPalette } from '#shared/domain/accounts/brand-palette';
import type {
  TAccountSettingsResponse,
  TApiKeyResponse,
  TSigningBrandResponse,
} from '#shared/schemas/responses/account-settings';

/** Picks fields rather than dropping `hash`, so a field added to TApiKey later stays hidden. */
export function toApiKeyResponse(k: TApiKey): TApiKeyResponse {
  return {
    id: k.keyId,
    name: k.name ?? null,
    prefix: k.prefix,
    user: k.userId,
    created: k.created,
    revoked: k.revoked ?? null,
  };
}

export function toSigningBrandResponse(b: TBrand): TSigningBrandResponse {
  const palette = brandPalette(b.primaryColor);
  return {
    id: b.id,
    name: b.name,
    primary_color: b.primaryColor ?? null,
    redirect_url: b.redirectUrl ?? null,
    logo_url: b.logoUrl ?? null,
    palette: palette
      ? { brand: palette.brand, on_brand: palette.onBrand, brand_text: palette.brandText }
      : null,
    created: b.created,
  };
}

export function toAccountSettingsResponse({
  account: a,
  canChange,
}: TAccountSettings): TAccountSettingsResponse {
  const r = a.reminders;
  return {
    id: a.id,
    name: a.name,
    language: a.language ?? null,
    signing_redirect_url: a.signingRedirectUrl ?? null,
    image_page_size: a.imagePageSize ?? 'letter',
    reminders: r
      ? {
          send_reminders: r.sendReminders,
          reminder_offset: r.reminderOffset ?? null,
          reminder_interval: r.reminderInterval ?? null,
          reminder_expires: r.reminderExpires ?? null,
        }
      : null,
    features: a.features,
    can_change: canChange,
  };
}
