import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { rateLimitUsageFor } from '../../shared/adapters/apigateway/cached-usage-reader';
import { createDocumentClient } from '../../shared/adapters/aws/clients';
import { createAccountStore } from '../../shared/adapters/dynamodb/account-store';
import { createDocTemplateStore } from '../../shared/adapters/dynamodb/doc-template-store';
import { createEnvelopeTemplateStore } from '../../shared/adapters/dynamodb/envelope-template-store';
import { randomIds, systemClock } from '../../shared/adapters/system';
import type { TConfig } from '../../shared/config';
import { createEnvelopeTemplate } from '../../shared/domain/envelope-templates/create-envelope-template';
import { deleteEnvelopeTemplate } from '../../shared/domain/envelope-templates/delete-envelope-template';
import { getEnvelopeTemplate } from '../../shared/domain/envelope-templates/get-envelope-template';
import { listEnvelopeTemplates } from '../../shared/domain/envelope-templates/list-envelope-templates';
import { updateEnvelopeTemplate } from '../../shared/domain/envelope-templates/update-envelope-template';
import { findDocTemplate } from '../../shared/domain/templates/get-doc-template';
import { createApiHandler } from '../../shared/http/api-handler';
import { listRoute } from '../../shared/http/list-route';
import type { TRoute } from '../../shared/http/router';
import { createLogger, type TLogger } from '../../shared/logger';
import { toEnvelopeTemplateResponse } from '../../shared/responses/envelope-template';

/** Composition root of the envelope-templates Lambda: adapters from config, routes to use cases. */
export function buildEnvelopeTemplatesHandler(opts: {
  config: TConfig;
  db?: DynamoDBDocumentClient;
  log?: TLogger;
}) {
  const { config } = opts;
  const db = opts.db ?? createDocumentClient(config);
  const log = opts.log ?? createLogger(config.logLevel);
  const templates = {
    templates: createDocTemplateStore(db, config.tableName),
    accounts: createAccountStore(db, config.tableName),
  };
  const deps = {
    envelopeTemplates: createEnvelopeTemplateStore(db, config.tableName),
    accounts: templates.accounts,
    // Every document of an envelope template is a document template of the same account.
    documentTemplates: {
      roles: async (caller: { accountId: string; userId: string }, id: string) =>
        (await findDocTemplate(templates, caller, id))?.roles.map((r) => r.key),
    },
    clock: systemClock,
    ids: randomIds,
  };
  // The local runtime learns its base URL once it listens: read it per request.
  const respond = (req: { url: URL }) => (t: Parameters<typeof toEnvelopeTemplateResponse>[0]) =>
    toEnvelopeTemplateResponse(t, config.publicBaseUrl || req.url.origin);

  const routes: TRoute[] = [
    listRoute(
      '/envelope-templates',
      (req, page) => listEnvelopeTemplates(deps, req.auth, page),
      (t, req) => respond(req)(t),
    ),
    {
      method: 'POST',
      path: '/envelope-templates',
      handler: async (req) => ({
        status: 201,
        body: respond(req)(await createEnvelopeTemplate(deps, req.auth, req.body)),
      }),
    },
    {
      method: 'GET',
      path: '/envelope-templates/{id:envelope-template}',
      handler: async (req) => ({
        status: 200,
        body: respond(req)(await getEnvelopeTemplate(deps, req.auth, req.params.id!)),
      }),
    },
    {
      method: 'PATCH',
      path: '/envelope-templates/{id:envelope-template}',
      handler: async (req) => ({
        status: 200,
        body: respond(req)(await updateEnvelopeTemplate(deps, req.auth, req.params.id!, req.body)),
      }),
    },
    {
      method: 'DELETE',
      path: '/envelope-templates/{id:envelope-template}',
      handler: async (req) => {
        await deleteEnvelopeTemplate(deps, req.auth, req.params.id!);
        return { status: 204 };
      },
    },
  ];

  return createApiHandler(routes, log, { usage: rateLimitUsageFor(config), config });
}
