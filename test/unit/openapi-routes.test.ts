// Every route of the keyed API's routers is in the published description, with the kinds of
// body it accepts, so a new endpoint cannot go undocumented; and the description is valid OpenAPI 3.1.
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020 } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { describe, expect, it, vi } from 'vitest';
import { buildAccountHandler } from '#functions/account/app';
import { buildBundlesHandler } from '#functions/bundles/app';
import { buildConsoleHandler } from '#functions/console/app';
import { buildEnvelopeTemplatesHandler } from '#functions/envelope-templates/app';
import { buildPacketsHandler } from '#functions/packets/app';
import { buildPersonsHandler } from '#functions/persons/app';
import { buildTemplatesHandler } from '#functions/templates/app';
import { buildWebhooksHandler } from '#functions/webhooks/app';
import type { TConfig } from '#shared/config';
import { defaultBodyOptions } from '#shared/http/body';
import type { TRoute } from '#shared/http/router';
import { buildOpenApiDocument, parseRoute } from '#shared/openapi/document';
import { OPERATIONS } from '#shared/openapi/operations';
import { SUBSCRIBABLE_EVENT_TYPES } from '#shared/schemas/vocabulary';

// The routers are built inside each function's composition root: catch the routes it hands over.
const captured: TRoute[][] = [];
vi.mock('#shared/http/api-handler', () => ({
  createApiHandler: (routes: TRoute[], _telemetry: unknown, options: { anonymous?: boolean }) => {
    // The console's function also serves its own sign-in API, outside /api/v2: not described.
    if (!options.anonymous) captured.push(routes);
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
    buildConsoleHandler,
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

  it('describes the call of every event a webhook may subscribe to, and says which one is never sent', () => {
    const hooks = (doc as unknown as { webhooks: Record<string, { post: { description: string } }> })
      .webhooks;
    expect(Object.keys(hooks).sort()).toEqual([...SUBSCRIBABLE_EVENT_TYPES].sort());
    expect(hooks.bundle_signer_reassigned!.post.description).toMatch(/never sent.*packet_reassigned/);
    expect(hooks.packet_reassigned!.post.description).not.toMatch(/never sent/);
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

  it("says a field's x, y, w and h are percent of the page from its top-left corner, and text tags' sizes points", () => {
    const request = (doc as unknown as { components: { schemas: Record<string, TSchema> } }).components
      .schemas.BundleRequest!;
    const document = request.properties!.documents!.items!.anyOf!.find((d) => d.properties?.file_b64)!;
    const field = document.properties!.fields!.items!;
    expect(field.properties!.x!.description).toMatch(/left edge.*percent of the page's width/);
    expect(field.properties!.y!.description).toMatch(/top edge.*percent of the page's height.*0 is the top/);
    expect(field.properties!.w!.description).toMatch(/width, in percent of the page's width/);
    expect(field.properties!.h!.description).toMatch(/height, in percent of the page's height/);
    expect(document.properties!.text_tags!.description).toMatch(/points \(1\/72 inch\).*not the percent/);
  });
});

describe('the examples in the description', () => {
  // biome-ignore lint/suspicious/noExplicitAny: the description is arbitrary JSON
  const doc = buildOpenApiDocument('https://esign.example.com') as any;
  const BASE = 'https://esign.example.com/openapi.json';
  // Closed objects, as the contract test reads them: an example may not show a field that is not there.
  // biome-ignore lint/suspicious/noExplicitAny: JSON schema nodes
  const closed = (node: any): any => {
    if (Array.isArray(node)) return node.map(closed);
    if (node === null || typeof node !== 'object') return node;
    const out = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, closed(v)]));
    if (out.type === 'object' && out.properties && out.additionalProperties === undefined)
      out.additionalProperties = false;
    return out;
  };
  const absolute = (schema: unknown) =>
    JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', `"${BASE}#/components/`));
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: BASE, components: { schemas: closed(doc.components.schemas) } });

  const examples = OPERATIONS.filter((o) => o.examples).flatMap((o) => {
    const { method, path } = parseRoute(o.route);
    const op = doc.paths[path][method];
    const json = (content: Record<string, { schema: unknown; example?: unknown }>) =>
      content['application/json']!;
    return [
      ...(o.examples!.request ? [{ what: `${o.route} request`, at: json(op.requestBody.content) }] : []),
      ...(o.examples!.response
        ? [
            {
              what: `${o.route} ${o.response.status}`,
              at: json(op.responses[String(o.response.status)].content),
            },
          ]
        : []),
    ];
  });

  it('has examples of the first calls an integrator makes', () => {
    expect(examples.map((e) => e.what)).toEqual(
      expect.arrayContaining([
        'POST /bundles request',
        'POST /bundles 201',
        'POST /persons request',
        'POST /webhooks 201',
      ]),
    );
  });

  it.each(examples.map((e) => [e.what, e.at] as const))('%s: the example matches its schema', (_what, at) => {
    expect(at.example).toBeDefined();
    const check = ajv.compile(absolute(at.schema));
    expect(check(at.example), JSON.stringify(check.errors, null, 1)).toBe(true);
  });
});

type TSchema = {
  description?: string;
  items?: TSchema;
  anyOf?: TSchema[];
  properties?: Record<string, TSchema>;
  patternProperties?: Record<string, TSchema>;
};
