import { createPersonStore } from '#shared/adapters/dynamodb/person-store';
import { randomIds, systemClock } from '#shared/adapters/system';
import { createCountingBundleStore } from '#shared/composition/bundle-publishing';
import { functionBase, keyedApi, type TFunctionOptions } from '#shared/composition/function-base';
import { createPerson } from '#shared/domain/persons/create-person';
import { deletePerson } from '#shared/domain/persons/delete-person';
import { getPerson } from '#shared/domain/persons/get-person';
import { listPersons } from '#shared/domain/persons/list-persons';
import { replacePerson } from '#shared/domain/persons/replace-person';
import { updatePerson } from '#shared/domain/persons/update-person';
import { createApiHandler } from '#shared/http/api-handler';
import { actingOf, resourceRoutes } from '#shared/http/resource-routes';
import type { TRoute } from '#shared/http/router';
import { toPersonResponse } from '#shared/responses/person';

/** Composition root of the persons Lambda: adapters from config, routes to use cases. */
export function buildPersonsHandler(opts: TFunctionOptions) {
  const { config, db, metrics, telemetry } = functionBase(opts);
  const deps = {
    store: createPersonStore(db, config.tableName),
    bundles: createCountingBundleStore(config, db, metrics),
    clock: systemClock,
    ids: randomIds,
  };

  const routes: TRoute[] = resourceRoutes(
    '/persons',
    'uuid',
    { deps, caller: actingOf, toBody: toPersonResponse },
    {
      list: async (req, page) => {
        const filter = {
          search: req.query.get('search'),
          email: req.query.get('email'),
          phone: req.query.get('phone'),
        };
        const result = await listPersons(deps, req.auth.accountId, filter, page);
        return { ...result, query: { ...result.filter } };
      },
      // Changes of a Person may change bundles that name it: those write audit events, so they
      // are given who acts; the rest only the account.
      create: (d, c, body, seed) => createPerson(d, c.accountId, body, seed),
      get: (d, c, id) => getPerson(d, c.accountId, id),
      replace: replacePerson,
      update: updatePerson,
      remove: (d, c, id) => deletePerson(d, c.accountId, id),
    },
  );

  return createApiHandler(routes, telemetry, keyedApi(config, db));
}
