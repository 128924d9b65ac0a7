// The wire format of an account's settings as its users manage them (/api/v2/api-keys/,
// /signing-brands/, /account/): snake_case as the rest of the API.
import * as z from 'zod';
import { zBoolean, zText } from './common';
import { zInt } from './field';
import { ZLanguageSchema } from './language';

export const ZApiKeyCreateSchema = z
  .object({
    name: zText(100).trim().min(1, 'Give the key a name.'),
  })
  .meta({ id: 'ApiKeyCreate' });

const zColor = z
  .string()
  .regex(/^#[0-9a-fA-F]{6}$/, 'Enter a colour as #rrggbb.')
  .transform((c) => c.toLowerCase());
const zRedirect = z.url({ protocol: /^https?$/, message: 'Enter a valid http(s) URL.' }).max(2000);
const zLogoUrl = z.url({ protocol: /^https$/, message: 'Enter a valid https URL.' }).max(2000);

/** The largest logo taken, in bytes: it is kept in the brand itself and shown on every signing page. */
export const MAX_LOGO_BYTES = 100_000;

/**
 * A logo uploaded as base64 (as documents' file_b64): a PNG or JPEG of at most MAX_LOGO_BYTES,
 * which the brand then answers as a `data:` URL in `logo_url`.
 */
const zLogoB64 = z
  .string()
  .max(Math.ceil(MAX_LOGO_BYTES / 3) * 4 + 4, 'The logo must be at most 100 KB.')
  .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'Enter the image as base64.')
  .meta({ description: 'A PNG or JPEG of at most 100 KB, base64-encoded; replaces logo_url.' });

/** A signing brand; `null` (on change) removes an optional setting. */
export const ZSigningBrandWriteSchema = z
  .object({
    name: zText(200).trim().min(1, 'Give the brand a name.'),
    primary_color: zColor.nullable().optional(),
    redirect_url: zRedirect.nullable().optional(),
    logo_url: zLogoUrl.nullable().optional(),
    logo_b64: zLogoB64.optional(),
  })
  .strict()
  .meta({ id: 'SigningBrandWrite' });

export const ZSigningBrandPatchSchema = ZSigningBrandWriteSchema.partial()
  .strict()
  .meta({ id: 'SigningBrandPatch' });

const days = zInt.pipe(z.number().min(0, 'Between 0 and 30 days.').max(30, 'Between 0 and 30 days.'));

/** The reminders a new bundle starts with, as a bundle's own settings (PATCH bundles/{id}/). */
export const ZAccountRemindersSchema = z
  .object({
    send_reminders: zBoolean,
    reminder_offset: days.optional(),
    reminder_interval: days.optional(),
    reminder_expires: days.optional(),
  })
  .strict();

/** The account's defaults an admin changes; `null` removes one (the service's own default then holds). */
export const ZAccountSettingsPatchSchema = z
  .object({
    language: ZLanguageSchema.nullable().optional(),
    signing_redirect_url: z
      .url({ protocol: /^https?$/, message: 'Enter a valid http(s) URL.' })
      .max(2048)
      .nullable()
      .optional(),
    image_page_size: z.enum(['letter', 'a4'], { message: 'Give letter or a4.' }).nullable().optional(),
    reminders: ZAccountRemindersSchema.nullable().optional(),
  })
  .strict()
  .meta({ id: 'AccountSettingsPatch' });
