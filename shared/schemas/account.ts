import * as z from 'zod';
import { zText } from './common';
import { ZLanguageSchema } from './language';
import { FEATURE_NAMES } from './vocabulary';

export const ZAccountCreateSchema = z.object({
  name: zText(200).trim().min(1),
  requesterName: zText(200).trim().min(1).optional(),
  requesterEmail: z.email().max(254),
  features: z.partialRecord(z.enum(FEATURE_NAMES), z.boolean()).optional(),
});

export const ZUserCreateSchema = z.object({
  name: zText(200).trim().min(1),
  email: z.email().max(254),
  isAdmin: z.boolean().optional(),
  teams: z.array(z.uuid('Enter team ids.')).max(50, 'At most 50 teams.').optional(),
});

export const ZUserTeamsSchema = z.object({
  teams: z.array(z.uuid('Enter team ids.')).max(50, 'At most 50 teams.'),
});

/** A team's requester name and email override the account's defaults for its bundles. */
export const ZTeamCreateSchema = z.object({
  name: zText(200).trim().min(1),
  requesterName: zText(200).trim().min(1).optional(),
  requesterEmail: z.email().max(254).optional(),
});

/** Signers are sent to `redirectUrl` after signing, so only web addresses make sense there. */
export const ZBrandCreateSchema = z.object({
  name: zText(200).trim().min(1),
  redirectUrl: z
    .url({ protocol: /^https?$/, message: 'Enter a valid http(s) URL.' })
    .max(2000)
    .optional(),
  primaryColor: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, 'Enter a color as #rrggbb.')
    .transform((c) => c.toLowerCase())
    .optional(),
  /** https only: the signing pages allow exactly this origin for images. */
  logoUrl: z
    .url({ protocol: /^https$/, message: 'Enter a valid https URL.' })
    .max(2000)
    .optional(),
});

/** Loopback hosts, where http is allowed for embedding (local development). */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * One origin allowed to frame embedded signing: `https://host[:port]` (http only for loopback),
 * nothing after the host; kept in its normal form (lower case, no default port).
 */
export const ZEmbedOrigin = z
  .string()
  .trim()
  .max(300)
  .transform((value, ctx) => {
    let url: URL | undefined;
    try {
      url = new URL(value);
    } catch {
      url = undefined;
    }
    const originOnly = url && (url.pathname === '/' || url.pathname === '') && !url.search && !url.hash;
    const secure =
      url && (url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)));
    if (!url || !originOnly || !secure || url.username || url.password) {
      ctx.addIssue({ code: 'custom', message: `"${value}" is not an origin like https://app.example.com.` });
      return z.NEVER;
    }
    return url.origin;
  });

export const ZImagePageSizeSchema = z.object({
  size: z.enum(['letter', 'a4'], { message: 'Give letter or a4.' }),
});

export const ZSigningRedirectSchema = z.object({
  url: z.union([
    z.literal(''),
    z.url({ protocol: /^https?$/, message: 'Enter a valid http(s) URL.' }).max(2048),
  ]),
});

/** The account's default signer language (removing it is the command's own case, ""). */
export const ZAccountLanguageSchema = z.object({ language: ZLanguageSchema });

export const ZEmbedOriginsSchema = z.object({
  origins: z.array(ZEmbedOrigin).max(20, 'At most 20 origins.'),
});

/** The operator's payout settings: a Stripe connected account and an ISO 4217 currency. */
export const ZPayoutSchema = z.object({
  connected_account: z
    .string()
    .trim()
    .regex(/^acct_[A-Za-z0-9]{1,64}$/, 'Enter a connected account id like acct_1A2b3C.'),
  currency: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z]{3}$/, 'Enter a three-letter ISO 4217 currency code like usd.'),
});
