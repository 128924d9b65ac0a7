import * as z from 'zod';
import { FEATURE_NAMES } from '../domain/accounts/account';
import { zText } from './common';

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
});
