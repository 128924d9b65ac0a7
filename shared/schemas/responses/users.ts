// The account's users, invitations, teams and security log as the API answers them.
import * as z from 'zod';

export const ZUserResponseSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    email: z.string(),
    is_admin: z.boolean(),
    teams: z.array(z.uuid()),
    created: z.string(),
  })
  .meta({ id: 'User' });

export const ZUserRemovedResponseSchema = z
  .object({
    id: z.uuid(),
    /** The removed user's API keys, revoked with them. */
    api_keys_revoked: z.number().int(),
  })
  .meta({ id: 'UserRemoved' });

export const ZInvitationResponseSchema = z
  .object({
    id: z.uuid(),
    email: z.string(),
    name: z.string(),
    is_admin: z.boolean(),
    teams: z.array(z.uuid()),
    /** The admin who sent it. */
    invited_by: z.string(),
    created: z.string(),
    /** The link stops working then. */
    expires: z.string(),
  })
  .meta({ id: 'Invitation' });

export const ZTeamResponseSchema = z
  .object({ id: z.uuid(), name: z.string(), created: z.string() })
  .meta({ id: 'Team' });

export const ZSecurityEventResponseSchema = z
  .object({
    id: z.string(),
    kind: z.string(),
    /** Who acted (for a sign-in: who signed in); absent for a refused single sign-on. */
    user_id: z.string().optional(),
    /** The user, team or invitation an admin's change was made to; for an erasure, the address's SHA-256. */
    subject_id: z.string().optional(),
    /** Who asked for an erasure: `api_key:<id>`, `user:<id>` or `operator`. */
    actor: z.string().optional(),
    /** What an erasure did, counted (never the address). */
    erasure: z
      .object({
        persons_removed: z.number().int(),
        bundles_to_act_on: z.number().int(),
        bundles_kept: z.number().int(),
      })
      .optional(),
    /** Empty for the operator's command. */
    ip: z.string(),
    user_agent: z.string(),
    at: z.string(),
  })
  .meta({ id: 'SecurityEvent' });
