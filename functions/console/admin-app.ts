import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createAccountStore } from '#shared/adapters/dynamodb/account-store';
import { createApiKeyStore } from '#shared/adapters/dynamodb/api-key-store';
import { createConsoleStore } from '#shared/adapters/dynamodb/console-store';
import { createUserAdminStore } from '#shared/adapters/dynamodb/user-admin-store';
import { randomIds, systemClock } from '#shared/adapters/system';
import type { TTelemetry } from '#shared/adapters/telemetry/telemetry';
import { keyedApi } from '#shared/composition/function-base';
import type { TConfig } from '#shared/config';
import type { TMailer } from '#shared/domain/ports/notifications';
import type { TActing } from '#shared/domain/users/acting-admin';
import { changeUser, getUser, listUsers, removeUser } from '#shared/domain/users/change-user';
import { invitationMailer } from '#shared/domain/users/invitation-mail';
import { inviteUser, listInvitations, revokeInvitation } from '#shared/domain/users/invite-user';
import { readSecurityLog } from '#shared/domain/users/security-log';
import { createTeam, deleteTeam, listTeams, renameTeam } from '#shared/domain/users/teams';
import { createApiHandler } from '#shared/http/api-handler';
import { paginationHeaders, parsePage } from '#shared/http/pagination';
import type { TRequest } from '#shared/http/request';
import type { TRoute } from '#shared/http/router';
import {
  toInvitationResponse,
  toSecurityEventResponse,
  toTeamResponse,
  toUserResponse,
} from '#shared/responses/users';

const acting = (req: TRequest): TActing => ({
  accountId: req.auth.accountId,
  userId: req.auth.userId,
  client: req.client,
});

/**
 * The admin API of an account's people below /api/v2 (an admin's API key or console session):
 * users, invitations, teams and the security log. Served by the console's function, which also
 * accepts the invitations it mails (functions/console/app.ts).
 */
export function buildPeopleAdminHandler(opts: {
  config: TConfig;
  db: DynamoDBDocumentClient;
  telemetry: TTelemetry;
  mailer: TMailer;
  mailFrom: string;
}) {
  const { config, db } = opts;
  const deps = {
    accounts: createAccountStore(db, config.tableName),
    console: createConsoleStore(db, config.tableName),
    users: createUserAdminStore(db, config.tableName),
    keys: createApiKeyStore(db, config.tableName),
    mailer: invitationMailer(opts.mailer, opts.mailFrom),
    clock: systemClock,
    ids: randomIds,
    get publicBaseUrl() {
      // Read per request: the local runtime learns its address only once it listens.
      return config.publicBaseUrl ?? '';
    },
  };

  const routes: TRoute[] = [
    {
      method: 'GET',
      path: '/users',
      handler: async (req) => ({
        status: 200,
        body: (await listUsers(deps, acting(req))).map(toUserResponse),
      }),
    },
    {
      method: 'GET',
      path: '/users/{id:uuid}',
      handler: async (req) => ({
        status: 200,
        body: toUserResponse(await getUser(deps, acting(req), req.params.id!)),
      }),
    },
    {
      method: 'PATCH',
      path: '/users/{id:uuid}',
      handler: async (req) => ({
        status: 200,
        body: toUserResponse(await changeUser(deps, acting(req), req.params.id!, req.body)),
      }),
    },
    {
      method: 'DELETE',
      path: '/users/{id:uuid}',
      handler: async (req) => {
        const removed = await removeUser(deps, acting(req), req.params.id!);
        return { status: 200, body: { id: req.params.id, api_keys_revoked: removed.apiKeysRevoked } };
      },
    },
    {
      method: 'GET',
      path: '/invitations',
      handler: async (req) => ({
        status: 200,
        body: (await listInvitations(deps, acting(req))).map(toInvitationResponse),
      }),
    },
    {
      method: 'POST',
      path: '/invitations',
      handler: async (req) => ({
        status: 201,
        body: toInvitationResponse(await inviteUser(deps, acting(req), req.body)),
      }),
    },
    {
      method: 'DELETE',
      path: '/invitations/{id:uuid}',
      handler: async (req) => {
        await revokeInvitation(deps, acting(req), req.params.id!);
        return { status: 204 };
      },
    },
    {
      method: 'GET',
      path: '/teams',
      handler: async (req) => ({
        status: 200,
        body: (await listTeams(deps, acting(req))).map(toTeamResponse),
      }),
    },
    {
      method: 'POST',
      path: '/teams',
      handler: async (req) => ({
        status: 201,
        body: toTeamResponse(await createTeam(deps, acting(req), req.body)),
      }),
    },
    {
      method: 'PATCH',
      path: '/teams/{id:uuid}',
      handler: async (req) => ({
        status: 200,
        body: toTeamResponse(await renameTeam(deps, acting(req), req.params.id!, req.body)),
      }),
    },
    {
      method: 'DELETE',
      path: '/teams/{id:uuid}',
      handler: async (req) => {
        await deleteTeam(deps, acting(req), req.params.id!);
        return { status: 204 };
      },
    },
    {
      method: 'GET',
      path: '/security_log',
      handler: async (req) => {
        const page = parsePage(req.query);
        const log = await readSecurityLog(deps, acting(req), page);
        return {
          status: 200,
          body: log.items.map(toSecurityEventResponse),
          headers: paginationHeaders(page, log.total, req.url),
        };
      },
    },
  ];
  return createApiHandler(routes, opts.telemetry, keyedApi(config, db));
}
