// The admin API of an account's people: users, invitations, teams and the security log. Every
// operation needs an admin's API key or console session: anyone else is answered 403.
import {
  ZInvitationResponseSchema,
  ZSecurityEventResponseSchema,
  ZTeamResponseSchema,
  ZUserRemovedResponseSchema,
  ZUserResponseSchema,
} from '#shared/schemas/responses/users';
import { ZInvitationCreateSchema, ZTeamWriteSchema, ZUserPatchSchema } from '#shared/schemas/users';

const tag = 'Users and teams' as const;

// Typed where operations.ts spreads it into OPERATIONS (importing its type here would be a cycle).
export const USERS_OPERATIONS = [
  {
    route: 'GET /users',
    operationId: 'listUsers',
    tag,
    summary: "The account's users (admins only)",
    response: { status: 200, schema: ZUserResponseSchema, array: true },
  },
  {
    route: 'GET /users/{id:uuid}',
    operationId: 'retrieveUser',
    tag,
    summary: 'A user of the account (admins only)',
    response: { status: 200, schema: ZUserResponseSchema },
  },
  {
    route: 'PATCH /users/{id:uuid}',
    operationId: 'updateUser',
    tag,
    summary: "Change a user's admin flag and teams (409 when it would leave the account without an admin)",
    body: { name: 'UserPatch', schema: ZUserPatchSchema },
    response: { status: 200, schema: ZUserResponseSchema },
    conflict: true,
  },
  {
    route: 'DELETE /users/{id:uuid}',
    operationId: 'removeUser',
    tag,
    summary: 'Remove a user: their console sessions end at once and their API keys are revoked',
    response: { status: 200, schema: ZUserRemovedResponseSchema },
    conflict: true,
  },
  {
    route: 'GET /invitations',
    operationId: 'listInvitations',
    tag,
    summary: 'Invitations waiting to be accepted',
    response: { status: 200, schema: ZInvitationResponseSchema, array: true },
  },
  {
    route: 'POST /invitations',
    operationId: 'inviteUser',
    tag,
    summary: 'Invite someone by email to become a user (the link works once, for 7 days)',
    body: { name: 'InvitationCreate', schema: ZInvitationCreateSchema },
    response: { status: 201, schema: ZInvitationResponseSchema },
    conflict: true,
  },
  {
    route: 'DELETE /invitations/{id:uuid}',
    operationId: 'revokeInvitation',
    tag,
    summary: 'Revoke a waiting invitation',
    response: { status: 204 },
    conflict: true,
  },
  {
    route: 'GET /teams',
    operationId: 'listTeams',
    tag,
    summary: "The account's teams",
    response: { status: 200, schema: ZTeamResponseSchema, array: true },
  },
  {
    route: 'POST /teams',
    operationId: 'createTeam',
    tag,
    summary: 'Create a team',
    body: { name: 'TeamWrite', schema: ZTeamWriteSchema },
    response: { status: 201, schema: ZTeamResponseSchema },
  },
  {
    route: 'PATCH /teams/{id:uuid}',
    operationId: 'renameTeam',
    tag,
    summary: 'Rename a team',
    body: { name: 'TeamWrite', schema: ZTeamWriteSchema },
    response: { status: 200, schema: ZTeamResponseSchema },
  },
  {
    route: 'DELETE /teams/{id:uuid}',
    operationId: 'deleteTeam',
    tag,
    summary: 'Delete a team (its members leave it)',
    response: { status: 204 },
  },
  {
    route: 'GET /security_log',
    operationId: 'listSecurityLog',
    tag,
    summary: "The account's security log, newest first: sign-ins, sign-outs and admins' changes",
    list: {},
    response: { status: 200, schema: ZSecurityEventResponseSchema, array: true },
  },
] as const;
