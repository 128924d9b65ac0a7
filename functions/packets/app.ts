import { createEvidenceStore } from '#shared/adapters/dynamodb/evidence-store';
import { createPersonStore } from '#shared/adapters/dynamodb/person-store';
import { createSigningTokenStore } from '#shared/adapters/dynamodb/signing-token-store';
import {
  bundleAdapters,
  functionBase,
  keyedApi,
  type TFunctionOptions,
} from '#shared/composition/function-base';
import { createEmbedUrl } from '#shared/domain/bundles/create-embed-url';
import { createKioskUrl } from '#shared/domain/bundles/create-kiosk-url';
import { findPacket } from '#shared/domain/bundles/find-packet';
import { getCoe } from '#shared/domain/bundles/get-coe';
import { remindPacket } from '#shared/domain/bundles/remind-packet';
import { updatePacket } from '#shared/domain/bundles/update-packet';
import { handOverPacket } from '#shared/domain/signing/hand-over-packet';
import { createApiHandler } from '#shared/http/api-handler';
import { actingOf, answerRoute, resourceRoutes } from '#shared/http/resource-routes';
import type { TRoute } from '#shared/http/router';
import { toPacketResponse } from '#shared/responses/bundle';

/** Composition root of the packets Lambda: one signer of a bundle. */
export function buildPacketsHandler(opts: TFunctionOptions) {
  const { config, db, metrics, telemetry } = functionBase(opts);
  const deps = {
    ...bundleAdapters(config, db, metrics),
    persons: createPersonStore(db, config.tableName),
    tokens: createSigningTokenStore(db, config.tableName),
    evidence: createEvidenceStore(db, config.tableName),
  };

  const routes: TRoute[] = [
    ...resourceRoutes(
      '/packets',
      'slug',
      { deps, caller: actingOf, toBody: toPacketResponse },
      {
        get: async (d, { accountId }, id) => (await findPacket(d, accountId, id)).packet,
        update: updatePacket,
      },
    ),
    answerRoute('POST', '/packets/{id:slug}/embed_url', 201, (req) =>
      createEmbedUrl(deps, req.auth.accountId, req.params.id!, config.publicBaseUrl ?? `${req.url.origin}`),
    ),
    answerRoute('POST', '/packets/{id:slug}/kiosk_url', 201, (req) =>
      createKioskUrl(deps, req.auth, req.params.id!, req.body, config.publicBaseUrl ?? `${req.url.origin}`),
    ),
    answerRoute('PUT', '/packets/{id:slug}/remind', 200, async (req) =>
      toPacketResponse(await remindPacket(deps, actingOf(req), req.params.id!)),
    ),
    answerRoute('POST', '/packets/{id:slug}/reassign', 200, async (req) =>
      toPacketResponse(await handOverPacket(deps, actingOf(req), req.params.id!, req.body)),
    ),
    answerRoute('GET', '/packets/{id:slug}/coe', 200, (req) =>
      getCoe(deps, req.auth.accountId, req.params.id!),
    ),
  ];
  return createApiHandler(routes, telemetry, keyedApi(config, db));
}
