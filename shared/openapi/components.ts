// The schemas of the API description, converted once from zod (draft 2020-12, the dialect of
// OpenAPI 3.1) into `components.schemas`. A schema given an id (`.meta({ id })`) anywhere it is
// used becomes a component of that name and is referenced, never repeated.
import * as z from 'zod';
import { ZErrorBodySchema } from '#shared/http/error-body';
import * as account from '#shared/schemas/responses/account';
import * as accountSettings from '#shared/schemas/responses/account-settings';
import * as bulk from '#shared/schemas/responses/bulk';
import * as bundle from '#shared/schemas/responses/bundle';
import * as docTemplate from '#shared/schemas/responses/doc-template';
import * as envelopeTemplate from '#shared/schemas/responses/envelope-template';
import * as erasure from '#shared/schemas/responses/erasure';
import * as exports from '#shared/schemas/responses/exports';
import * as person from '#shared/schemas/responses/person';
import * as retention from '#shared/schemas/responses/retention';
import * as users from '#shared/schemas/responses/users';
import * as webhook from '#shared/schemas/responses/webhook';
import type { TOperation } from './operations';

export type TJsonSchema = Record<string, unknown>;

export const schemaRef = (id: string): TJsonSchema => ({ $ref: `#/components/schemas/${id}` });

const OPTIONS = {
  target: 'draft-2020-12',
  // Requests are described as clients send them (before defaults and transforms): the answers'
  // schemas have no transforms, so the one mode fits both.
  io: 'input',
  // A check zod cannot express (a custom predicate) is described by its base type, not refused.
  unrepresentable: 'any',
} as const;

/** Every response schema with an id, so that nested ones (Packet in Bundle) are components too. */
const RESPONSE_MODULES = [
  account,
  accountSettings,
  bulk,
  bundle,
  docTemplate,
  envelopeTemplate,
  erasure,
  exports,
  person,
  retention,
  users,
  webhook,
];

function idOf(schema: unknown): string | undefined {
  if (!(schema instanceof z.ZodType)) return undefined;
  const id = z.globalRegistry.get(schema)?.id;
  return typeof id === 'string' ? id : undefined;
}

/** A converted schema without the keywords of a standalone document ($schema, a fragment $id). */
function bare(schema: TJsonSchema): TJsonSchema {
  const { $schema: _schema, $id: _id, ...rest } = schema;
  return rest;
}

/** `components.schemas` for these operations: response schemas by their ids, request bodies by their names. */
export function componentSchemas(operations: readonly TOperation[]): Record<string, TJsonSchema> {
  const registry = z.registry<{ id: string }>();
  const named = new Map<string, z.ZodType>();
  const add = (id: string, schema: z.ZodType) => {
    const seen = named.get(id);
    if (seen === schema) return;
    if (seen) throw new Error(`Two schemas are named ${id} in the API description.`);
    named.set(id, schema);
    registry.add(schema, { id });
  };
  add('Error', ZErrorBodySchema);
  for (const module of RESPONSE_MODULES) {
    for (const value of Object.values(module)) {
      const id = idOf(value);
      if (id) add(id, value as z.ZodType);
    }
  }
  for (const op of operations) {
    if (op.body) add(op.body.name, op.body.schema);
    const id = idOf(op.response.schema);
    if (op.response.schema && !id) throw new Error(`${op.route}: its response schema has no id.`);
  }
  const { schemas } = z.toJSONSchema(registry, {
    ...OPTIONS,
    uri: (id) => `#/components/schemas/${id}`,
  }) as { schemas: Record<string, TJsonSchema> };
  // zod gathers schemas with an id it was not given into `__shared`: register them above instead.
  if ('__shared' in schemas) throw new Error('A schema with an id is missing from the API description.');
  return Object.fromEntries(Object.entries(schemas).map(([id, s]) => [id, bare(s)]));
}

/** The id of a response schema (every one has one: see the check above). */
export function responseSchemaId(schema: z.ZodType): string {
  return idOf(schema)!;
}

/** A query object's fields as OpenAPI query parameters. */
export function queryParameters(query: z.ZodObject): TJsonSchema[] {
  const json = z.toJSONSchema(query, OPTIONS) as { properties?: Record<string, TJsonSchema> };
  return Object.entries(json.properties ?? {}).map(([name, schema]) => {
    const { description, ...rest } = schema;
    return {
      name,
      in: 'query',
      required: false,
      schema: rest,
      ...(typeof description === 'string' ? { description } : {}),
    };
  });
}
