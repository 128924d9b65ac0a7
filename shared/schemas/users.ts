// What an admin sends to manage the account's users, invitations and teams (/api/v2/users,
// /invitations, /teams).
import * as z from 'zod';
import { zText } from './common';

const teams = z.array(z.uuid('Enter team ids.')).max(50, 'At most 50 teams.');

export const ZInvitationCreateSchema = z.object({
  email: z.email('Enter a valid email address.').max(254),
  name: zText(200).trim().min(1, 'Enter the name of the person you invite.'),
  is_admin: z.boolean().optional(),
  teams: teams.optional(),
});

export const ZUserPatchSchema = z
  .object({ is_admin: z.boolean().optional(), teams: teams.optional() })
  .refine((p) => p.is_admin !== undefined || p.teams !== undefined, {
    message: 'Give is_admin, teams or both.',
  });

export const ZTeamWriteSchema = z.object({
  name: zText(200).trim().min(1, 'Enter the team name.'),
});
