// Every route of the keyed API's routers is in the published description, with the kinds of
// body it accepts, so a new endpoint cannot go undocumented; and the description is valid OpenAPI 3.1.
import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect, it, vi } from 'vitest';
import { buildAccountHandler } from '../../functions/account/app';
import { buildBundlesHandler } from '../../functions/bundles/app';
import { buildEnvelopeTemplatesHandler } from '../../functions/envelope-templates/app';
import { buildPacketsHandler } from '../../functions/packets/app';
import { buildPersonsHandler } from '../../functions/persons/app';
import { buildTemplatesHandler } from '../../functions/templates/app';
import { buildWebhooksHandler } from '../../functions/webhooks/app';
import type { TConfig } from '../../shared/config';
import { defaultBodyOptions } from '../../shared/http/body';
import type { TRoute } from '../../shared/http/router';
import { buildOpenApiDocument, parseRoute } from '../../shared/openapi/document';
import { OPERATIONS } from '../../shared/openapi/operations';

// The routers are built inside each function's composition root: catch the routes it hands over.
const captured: TRoute[][] = [];
vi.mock('../../shared/http/api-handler', () => ({
  createApiHandler: (routes: TRoute[]) => {
    captured.push(routes);
    return async () => ({ statusCode: 500, body: '' });
  },
}));

const config: TConfig = {
  stage: 'test',
  region: 'us-east-1',
  tableName: 'table',
  bucketName: 'bucket',
  usagePlanId: 'plan',
  logLevel: 'silent',
  endpoints: {},
  secrets: { kind: 'local', key: Buffer.alloc(32).toString('base64') },
};

function keyedRoutes(): TRoute[] {
  captured.length = 0;
  for (const build of [
    buildAccountHandler,
    buildBundlesHandler,
    buildEnvelopeTemplatesHandler,
    buildPacketsHandler,
    buildPersonsHandler,
    buildTemplatesHandler,
    buildWebhooksHandler,
  ]) {
    build({ config });
  }
  return captured.flat();
}

const MEDIA_TYPES = {
  json: 'application/json',
  form: 'application/x-www-form-urlencoded',
  multipart: 'multipart/form-data',
  upload: 'application/pdf',
} as const;

describe('the API description', () => {
  const doc = buildOpenApiDocument('https://esign.example.com') as {
    paths: Record<string, Record<string, { requestBody?: { content: Record<string, unknown> } }>>;
  };

  it('is valid OpenAPI 3.1', async () => {
    const valid = await SwaggerParser.validate(structuredClone(doc) as never);
    expect((valid as { openapi: string }).openapi).toMatch(/^3\.1\./);
  });

  it('lists every route of the routers, and no route they lack', () => {
    const routes = keyedRoutes();
    expect(routes.length).toBeGreaterThan(50);
    const declared = routes.map((r) => `${r.method} ${r.path}`).sort();
    expect(OPERATIONS.map((o) => o.route).sort()).toEqual(declared);
    for (const route of declared) {
      const { method, path } = parseRoute(route);
      expect(doc.paths[path]?.[method], route).toBeDefined();
    }
  });

  it('describes a body for each route that reads one, in the kinds the route accepts', () => {
    for (const r of keyedRoutes()) {
      const op = OPERATIONS.find((o) => o.route === `${r.method} ${r.path}`)!;
      const accept = (r.body?.accept ?? defaultBodyOptions.accept).filter((k) => k !== 'raw');
      if (!op.body) continue;
      const { method, path } = parseRoute(op.route);
      const content = Object.keys(doc.paths[path]![method]!.requestBody!.content).sort();
      expect(content, op.route).toEqual(accept.map((k) => MEDIA_TYPES[k as keyof typeof MEDIA_TYPES]).sort());
    }
  });

  it("says a document's file may be a PDF, a JPEG or a PNG, however it is given", () => {
    const request = (doc as unknown as { components: { schemas: Record<string, TSchema> } }).components
      .schemas.BundleRequest!;
    // A document is a template document or a file document; the file one has the file fields.
    const documents = request.properties!.documents!.items!.anyOf!;
    const document = documents.find((d) => d.properties?.file_b64)!;
    for (const field of ['file_url', 'file_b64', 'file_index']) {
      expect(document.properties?.[field]?.description, field).toMatch(/PDF.*JPEG.*PNG/);
    }
    const multipart = doc.paths[parseRoute('POST /bundles').path]!.post!.requestBody!.content[
      'multipart/form-data'
    ] as {
      schema: TSchema;
    };
    expect(Object.values(multipart.schema.patternProperties ?? {})[0]?.description).toMatch(
      /PDF, JPEG or PNG/,
    );
  });
});

type TSchema = {
  description?: string;
  items?: TSchema;
  anyOf?: TSchema[];
  properties?: Record<string, TSchema>;
  patternProperties?: Record<string, TSchema>;
};
