import { createPublishingBundleStore } from '../../shared/adapters/bundle-publishing';
import { createPersonStore } from '../../shared/adapters/dynamodb/person-store';
import { randomIds, systemClock } from '../../shared/adapters/system';
import { functionBase, keyedApi, type TFunctionOptions } from '../../shared/composition/function-base';
import { createPerson } from '../../shared/domain/persons/create-person';
import { deletePerson } from '../../shared/domain/persons/delete-person';
import { getPerson } from '../../shared/domain/persons/get-person';
import { listPersons } from '../../shared/domain/persons/list-persons';
import { replacePerson } from '../../shared/domain/persons/replace-person';
import { updatePerson } from '../../shared/domain/persons/update-person';
import { createApiHandler } from '../../shared/http/api-handler';
import { accountOf, resourceRoutes } from '../../shared/http/resource-routes';
import type { TRoute } from '../../shared/http/router';
import { toPersonResponse } from '../../shared/responses/person';

/** Composition root of the persons Lambda: adapters from config, routes to use cases. */
export function buildPersonsHandler(opts: TFunctionOptions) {
  const { config, db, log, metrics, telemetry } = functionBase(opts);
  const deps = {
    store: createPersonStore(db, config.tableName),
    bundles: createPublishingBundleStore(config, db, log, metrics),
    clock: systemClock,
    ids: randomIds,
  };

  const routes: TRoute[] = resourceRoutes(
    '/persons',
    'uuid',
    { deps, caller: accountOf, toBody: toPersonResponse },
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
      create: createPerson,
      get: getPerson,
      replace: replacePerson,
      update: updatePerson,
      remove: deletePerson,
    },
  );

  return createApiHandler(routes, telemetry, keyedApi(config, db));
}
