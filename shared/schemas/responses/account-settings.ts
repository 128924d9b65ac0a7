// An account's settings as the API answers them: its API keys, signing brands and defaults.
import * as z from 'zod';
import { FEATURE_NAMES } from '../vocabulary';

export const ZApiKeyResponseSchema = z
  .object({
    id: z.uuid(),
    name: z.string().nullable(),
    /** The key's first characters, to tell keys apart; never the key. */
    prefix: z.string(),
    /** The user whose key it is (requests made with it act as them). */
    user: z.string(),
    created: z.string(),
    /** When it was revoked; null while it works. */
    revoked: z.string().nullable(),
  })
  .meta({ id: 'ApiKey' });
export type TApiKeyResponse = z.infer<typeof ZApiKeyResponseSchema>;

export const ZApiKeyCreatedSchema = ZApiKeyResponseSchema.extend({
  key: z
    .string()
    .meta({ description: 'The key itself, in this answer only: the service keeps its hash alone.' }),
}).meta({ id: 'ApiKeyCreated' });

export const ZSigningBrandResponseSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    primary_color: z.string().nullable(),
    redirect_url: z.string().nullable(),
    logo_url: z.string().nullable(),
    /**
     * The colours the signing pages draw with this brand: `primary_color` moved, where needed,
     * until text on it and it as text reach WCAG AA contrast. Null without a primary colour.
     */
    palette: z
      .object({
        /** Buttons' fill. */
        brand: z.string(),
        /** Buttons' text. */
        on_brand: z.string(),
        /** Links and accents on the page. */
        brand_text: z.string(),
      })
      .nullable(),
    created: z.string(),
  })
  .meta({ id: 'SigningBrand' });
export type TSigningBrandResponse = z.infer<typeof ZSigningBrandResponseSchema>;

export const ZAccountSettingsResponseSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    /** The language signers read when neither packet nor bundle names one; null: their browser's. */
    language: z.string().nullable(),
    /** Where signers go after signing when neither packet nor brand says; null: the done page. */
    signing_redirect_url: z.string().nullable(),
    /** The paper JPEG and PNG documents are put on. */
    image_page_size: z.enum(['letter', 'a4']),
    /** The reminders new bundles start with (with the reminders feature); null: none. */
    reminders: z
      .object({
        send_reminders: z.boolean(),
        reminder_offset: z.number().int().nullable(),
        reminder_interval: z.number().int().nullable(),
        reminder_expires: z.number().int().nullable(),
      })
      .nullable(),
    features: z.record(z.enum(FEATURE_NAMES), z.boolean()),
    /** Whether the caller may change these settings (account admins). */
    can_change: z.boolean(),
  })
  .meta({ id: 'AccountSettings' });
export type TAccountSettingsResponse = z.infer<typeof ZAccountSettingsResponseSchema>;
