import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { rateLimitUsageFor } from '../../shared/adapters/apigateway/cached-usage-reader';
import { createDocumentClient } from '../../shared/adapters/aws/clients';
import { createPublishingBundleStore } from '../../shared/adapters/bundle-publishing';
import { createPersonStore } from '../../shared/adapters/dynamodb/person-store';
import { randomIds, systemClock } from '../../shared/adapters/system';
import type { TConfig } from '../../shared/config';
import { createPerson } from '../../shared/domain/persons/create-person';
import { deletePerson } from '../../shared/domain/persons/delete-person';
import { getPerson } from '../../shared/domain/persons/get-person';
import { listPersons } from '../../shared/domain/persons/list-persons';
import { replacePerson } from '../../shared/domain/persons/replace-person';
import { updatePerson } from '../../shared/domain/persons/update-person';
import { createApiHandler } from '../../shared/http/api-handler';
import { listRoute } from '../../shared/http/list-route';
import type { TRoute } from '../../shared/http/router';
import { createLogger, type TLogger } from '../../shared/logger';
import { toPersonResponse } from '../../shared/responses/person';

/** Composition root of the persons Lambda: adapters from config, routes to use cases. */
export function buildPersonsHandler(opts: { config: TConfig; db?: DynamoDBDocumentClient; log?: TLogger }) {
  const db = opts.db ?? createDocumentClient(opts.config);
  const log = opts.log ?? createLogger(opts.config.logLevel);
  const deps = {
    store: createPersonStore(db, opts.config.tableName),
    bundles: createPublishingBundleStore(opts.config, db, log),
    clock: systemClock,
    ids: randomIds,
  };

  const routes: TRoute[] = [
    listRoute(
      '/persons',
      async (req, page) => {
        const filter = {
          search: req.query.get('search'),
          email: req.query.get('email'),
          phone: req.query.get('phone'),
        };
        const result = await listPersons(deps, req.auth.accountId, filter, page);
        return { ...result, query: { ...result.filter } };
      },
      toPersonResponse,
    ),
    {
      method: 'POST',
      path: '/persons',
      handler: async (req) => ({
        status: 201,
        body: toPersonResponse(await createPerson(deps, req.auth.accountId, req.body)),
      }),
    },
    {
      method: 'GET',
      path: '/persons/{id:uuid}',
      handler: async (req) => ({
        status: 200,
        body: toPersonResponse(await getPerson(deps, req.auth.accountId, req.params.id!)),
      }),
    },
    {
      method: 'PUT',
      path: '/persons/{id:uuid}',
      handler: async (req) => ({
        status: 200,
        body: toPersonResponse(await replacePerson(deps, req.auth.accountId, req.params.id!, req.body)),
      }),
    },
    {
      method: 'PATCH',
      path: '/persons/{id:uuid}',
      handler: async (req) => ({
        status: 200,
        body: toPersonResponse(await updatePerson(deps, req.auth.accountId, req.params.id!, req.body)),
      }),
    },
    {
      method: 'DELETE',
      path: '/persons/{id:uuid}',
      handler: async (req) => {
        await deletePerson(deps, req.auth.accountId, req.params.id!);
        return { status: 204 };
      },
    },
  ];

  return createApiHandler(routes, log, { usage: rateLimitUsageFor(opts.config), config: opts.config });
}
