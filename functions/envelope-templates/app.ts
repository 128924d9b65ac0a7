import { createAccountStore } from '#shared/adapters/dynamodb/account-store';
import { createDocTemplateStore } from '#shared/adapters/dynamodb/doc-template-store';
import { createEnvelopeTemplateStore } from '#shared/adapters/dynamodb/envelope-template-store';
import { randomIds, systemClock } from '#shared/adapters/system';
import { functionBase, keyedApi, type TFunctionOptions } from '#shared/composition/function-base';
import { createEnvelopeTemplate } from '#shared/domain/envelope-templates/create-envelope-template';
import { deleteEnvelopeTemplate } from '#shared/domain/envelope-templates/delete-envelope-template';
import { getEnvelopeTemplate } from '#shared/domain/envelope-templates/get-envelope-template';
import { listEnvelopeTemplates } from '#shared/domain/envelope-templates/list-envelope-templates';
import { updateEnvelopeTemplate } from '#shared/domain/envelope-templates/update-envelope-template';
import { findDocTemplate } from '#shared/domain/templates/get-doc-template';
import { createApiHandler } from '#shared/http/api-handler';
import { authOf, resourceRoutes } from '#shared/http/resource-routes';
import type { TRoute } from '#shared/http/router';
import { toEnvelopeTemplateResponse } from '#shared/responses/envelope-template';

/** Composition root of the envelope-templates Lambda: adapters from config, routes to use cases. */
export function buildEnvelopeTemplatesHandler(opts: TFunctionOptions) {
  const { config, db, telemetry } = functionBase(opts);
  const templates = {
    templates: createDocTemplateStore(db, config.tableName),
    accounts: createAccountStore(db, config.tableName),
  };
  const deps = {
    envelopeTemplates: createEnvelopeTemplateStore(db, config.tableName),
    accounts: templates.accounts,
    // Every document of an envelope template is a document template of the same account.
    documentTemplates: {
      outline: async (caller: { accountId: string; userId: string }, id: string) => {
        const found = await findDocTemplate(templates, caller, id);
        if (!found) return undefined;
        const filledBy = found.fields.flatMap((f) =>
          f.editors.map((e) => (e.startsWith('-') ? e.slice(1) : e)),
        );
        return { roles: found.roles.map((r) => r.key), filledBy };
      },
    },
    clock: systemClock,
    ids: randomIds,
  };
  // The local runtime learns its base URL once it listens: read it per request.
  const respond = (t: Parameters<typeof toEnvelopeTemplateResponse>[0], req: { url: URL }) =>
    toEnvelopeTemplateResponse(t, config.publicBaseUrl || req.url.origin);

  const routes: TRoute[] = resourceRoutes(
    '/envelope-templates',
    'envelope-template',
    { deps, caller: authOf, toBody: respond },
    {
      list: (req, page) => listEnvelopeTemplates(deps, req.auth, page),
      create: createEnvelopeTemplate,
      get: getEnvelopeTemplate,
      update: updateEnvelopeTemplate,
      remove: deleteEnvelopeTemplate,
    },
  );

  return createApiHandler(routes, telemetry, keyedApi(config, db));
}
