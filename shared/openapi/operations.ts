// Every endpoint of the keyed API, as the published description lists it: the route as the
// functions' routers declare it (`METHOD /path/{id:kind}`, below /api/v2), and the zod schemas of
// what it takes and answers. Only the list of endpoints is written here; every shape comes from
// the schemas the service validates requests with and types its answers by.
// test/unit/openapi-routes.test.ts fails when a router has a route this table lacks.
import * as z from 'zod';
import { ZEnvelopeCreateSchema } from '#shared/domain/bundles/envelope-bundle-request';
import { ZByHash } from '#shared/domain/evidence/verify-file';
import type { TBodyKind } from '#shared/http/body';
import { ZBulkRequestSchema } from '#shared/schemas/bulk';
import { ZBundleListQuerySchema } from '#shared/schemas/bundle-list-query';
import { ZBundlePatchSchema } from '#shared/schemas/bundle-patch';
import {
  ZBundleRequestSchema,
  ZDocumentRequestSchema,
  ZTemplateRequestSchema,
} from '#shared/schemas/bundle-request';
import { ZDocTemplateCreateSchema, ZDocTemplatePatchSchema } from '#shared/schemas/doc-template';
import {
  ZEnvelopeTemplatePatchSchema,
  ZEnvelopeTemplateWriteSchema,
} from '#shared/schemas/envelope-template';
import { ZKioskUrlRequestSchema } from '#shared/schemas/kiosk-url';
import { ZPacketPatchSchema } from '#shared/schemas/packet-patch';
import { ZPersonFilterSchema, ZPersonPatchSchema, ZPersonWriteSchema } from '#shared/schemas/person';
import { ZPrepSessionCreateSchema } from '#shared/schemas/prep-session';
import { ZRateLimitResponseSchema } from '#shared/schemas/responses/account';
import { ZBulkBatchResponseSchema } from '#shared/schemas/responses/bulk';
import {
  ZBundleDataItemSchema,
  ZBundleEventResponseSchema,
  ZBundleFileItemSchema,
  ZBundleResponseSchema,
  ZBundleWithExtrasResponseSchema,
  ZCoeResponseSchema,
  ZEmbedUrlResponseSchema,
  ZInterimFilesResponseSchema,
  ZPacketResponseSchema,
  ZValidateDraftResponseSchema,
  ZVerifyResponseSchema,
} from '#shared/schemas/responses/bundle';
import {
  ZDocTemplateResponseSchema,
  ZPrepSessionCreatedSchema,
} from '#shared/schemas/responses/doc-template';
import { ZEnvelopeTemplateResponseSchema } from '#shared/schemas/responses/envelope-template';
import { ZPersonResponseSchema } from '#shared/schemas/responses/person';
import {
  ZWebhookDeliveryResponseSchema,
  ZWebhookEventResponseSchema,
  ZWebhookHeaderResponseSchema,
  ZWebhookResponseSchema,
  ZWebhookSecretResponseSchema,
} from '#shared/schemas/responses/webhook';
import { ZTagsRequestSchema } from '#shared/schemas/tags';
import {
  ZWebhookHeaderListQuerySchema,
  ZWebhookHeaderPatchSchema,
  ZWebhookHeaderWriteSchema,
  ZWebhookListQuerySchema,
  ZWebhookPatchSchema,
  ZWebhookWriteSchema,
} from '#shared/schemas/webhook';
import { ZWebhookDeliveryListQuerySchema, ZWebhookEventListQuerySchema } from '#shared/schemas/webhook-log';
import * as examples from './examples';
import { BUNDLE_PAGE_OPERATIONS } from './operations-bundle-page';
import { editorOperations } from './operations-editor';
import { ERASURE_OPERATIONS } from './operations-erasure';
import { EXPORT_OPERATIONS } from './operations-export';
import { RETENTION_OPERATIONS } from './operations-retention';
import { SETTINGS_OPERATIONS } from './operations-settings';
import { USERS_OPERATIONS } from './operations-users';

/** A request body: its schema (named in components) and the kinds of body the route accepts. */
export interface TRequestBody {
  name: string;
  schema: z.ZodType;
  /** As the route's `body.accept` (shared/http/body.ts); JSON and form-encoded when not given. */
  accept?: TBodyKind[];
  /** Multipart: the part holding the JSON request; the files are `files[N]` parts. */
  jsonPart?: string;
  /**
   * Multipart: the one file part there is instead of `files[N]` (bulk send's CSV), and the
   * request bodies (by name) the JSON part may be, when it is not this body itself.
   */
  filePart?: { name: string; mediaType: string; jsonPartIs?: string[] };
}

export interface TOperation {
  /** As the router declares it: `GET /bundles/{id:slug}`. */
  route: string;
  operationId: string;
  tag: string;
  summary: string;
  /** A paginated list: `page` and `per_page`, the pagination headers, and these filters. */
  list?: { filters?: z.ZodObject };
  query?: z.ZodObject;
  body?: TRequestBody;
  /** The success answer: its status and schema (an array of it for lists); none for 204. */
  response: { status: 200 | 201 | 202 | 204; schema?: z.ZodType; array?: boolean };
  /** Answers beside the success and the errors every keyed route can give (400, 401, 404, 429). */
  conflict?: boolean;
  /** Reads a file anyone may have made: 422 `too_complex` past the caps of untrusted files. */
  tooComplex?: boolean;
  /** A JSON request body and a success answer as examples (examples.ts). */
  examples?: { request?: unknown; response?: unknown };
}

/**
 * `status` may be left out (absent means "send"), which its preprocess hides from the converter;
 * and the documents are described item by item, as create-bundle parses them one by one.
 */
const ZBundleCreateDoc = ZBundleRequestSchema.extend({
  status: ZBundleRequestSchema.shape.status.optional(),
  documents: z.array(z.union([ZDocumentRequestSchema, ZTemplateRequestSchema])).min(1),
});

/** A new template's document comes as a bundle document's does (create-doc-template.ts reads it). */
const ZDocTemplateCreateDoc = ZDocTemplateCreateSchema.extend({
  file_url: ZDocumentRequestSchema.shape.file_url,
  file_b64: ZDocumentRequestSchema.shape.file_b64,
  file_index: ZDocumentRequestSchema.shape.file_index,
});

/** The bundle settings of a create request, with the envelope template's part instead of documents. */
const ZEnvelopeBundleCreateDoc = ZBundleRequestSchema.omit({ documents: true, packets: true }).extend({
  ...ZEnvelopeCreateSchema.shape,
  status: ZBundleRequestSchema.shape.status.optional(),
});

/** Bulk send's rows may also come as CSV text (bulk-body.ts reads it into rows). */
const ZBulkRequestDoc = ZBulkRequestSchema.extend({
  rows: z.union([
    ZBulkRequestSchema.shape.rows,
    z.string().meta({
      description:
        'CSV with a header row: `<signer key>.<attribute>` columns fill that signer, other columns are field values by field key (or, in a bundle of uploaded documents, by field label). At most 1,000 columns.',
    }),
  ]),
});

const ZIncludeQuery = z.object({
  include: z
    .string()
    .optional()
    .meta({ description: 'A comma-separated list of data, events and files, each at most once.' }),
});

/** The six things an API does with a resource, in the order the description lists them. */
type TVerb = 'list' | 'create' | 'retrieve' | 'replace' | 'update' | 'delete';

/**
 * The routes of a resource kept in a collection: list, create, retrieve, replace (when it has a
 * `write` body and `replace`), change and delete, named `<verb><Name>` and summarized "List
 * persons", "Create a person"... unless `summaries` words one otherwise; `extra` routes follow
 * the create, as their paths sit beside the collection's.
 */
function resource(r: {
  path: string;
  idKind: string;
  tag: string;
  /** For operation ids: Person, Persons. */
  name: [one: string, many: string];
  /** For summaries: a person, persons. */
  words: [one: string, many: string];
  schema: z.ZodType;
  filters?: z.ZodObject;
  write: TRequestBody;
  patch: TRequestBody;
  replace?: boolean;
  /** 409 on delete (the resource may still be in use). */
  deleteConflict?: boolean;
  summaries?: Partial<Record<TVerb, string>>;
  extra?: TOperation[];
  /** A create request and the resource it makes: examples of create, retrieve and list. */
  example?: { write: unknown; one: unknown };
}): TOperation[] {
  const item = `${r.path}/{id:${r.idKind}}`;
  const [one, many] = r.words;
  const said = (verb: TVerb, text: string) => r.summaries?.[verb] ?? text;
  const op = (verb: TVerb, route: string, rest: Omit<TOperation, 'route' | 'operationId' | 'tag'>) => ({
    route,
    operationId: `${verb}${verb === 'list' ? r.name[1] : r.name[0]}`,
    tag: r.tag,
    ...rest,
  });
  return [
    op('list', `GET ${r.path}`, {
      summary: said('list', `List ${many}`),
      list: r.filters ? { filters: r.filters } : {},
      response: { status: 200, schema: r.schema, array: true },
      ...(r.example ? { examples: { response: [r.example.one] } } : {}),
    }),
    op('create', `POST ${r.path}`, {
      summary: said('create', `Create ${one}`),
      body: r.write,
      response: { status: 201, schema: r.schema },
      ...(r.example ? { examples: { request: r.example.write, response: r.example.one } } : {}),
    }),
    ...(r.extra ?? []),
    op('retrieve', `GET ${item}`, {
      summary: said('retrieve', `Retrieve ${one}`),
      response: { status: 200, schema: r.schema },
      ...(r.example ? { examples: { response: r.example.one } } : {}),
    }),
    ...(r.replace
      ? [
          op('replace', `PUT ${item}`, {
            summary: said('replace', `Replace ${one}`),
            body: r.write,
            response: { status: 200, schema: r.schema },
          }),
        ]
      : []),
    op('update', `PATCH ${item}`, {
      summary: said('update', `Change ${one}`),
      body: r.patch,
      response: { status: 200, schema: r.schema },
    }),
    op('delete', `DELETE ${item}`, {
      summary: said('delete', `Delete ${one}`),
      response: { status: 204 },
      ...(r.deleteConflict ? { conflict: true } : {}),
    }),
  ];
}

const bundles: TOperation[] = [
  {
    route: 'GET /bundles',
    operationId: 'listBundles',
    tag: 'Bundles',
    summary: 'List bundles',
    list: { filters: ZBundleListQuerySchema },
    response: { status: 200, schema: ZBundleResponseSchema, array: true },
    examples: { response: [examples.bundle] },
  },
  {
    route: 'POST /bundles',
    operationId: 'createBundle',
    tag: 'Bundles',
    summary: 'Create a bundle (JSON, form or multipart with files)',
    body: {
      name: 'BundleRequest',
      schema: ZBundleCreateDoc,
      accept: ['json', 'form', 'multipart'],
      jsonPart: 'bundle_request',
    },
    response: { status: 201, schema: ZBundleResponseSchema },
    examples: { request: examples.bundleRequest, response: examples.bundle },
  },
  {
    route: 'POST /bundles/create_from_envelope_template',
    operationId: 'createBundleFromEnvelopeTemplate',
    tag: 'Bundles',
    summary: 'Create a bundle from an envelope template',
    body: { name: 'EnvelopeTemplateBundleRequest', schema: ZEnvelopeBundleCreateDoc },
    response: { status: 201, schema: ZBundleResponseSchema },
    examples: { request: examples.envelopeBundleRequest },
  },
  {
    route: 'POST /bundles/bulk',
    operationId: 'createBulkSend',
    tag: 'Bundles',
    summary: 'Send one bundle to up to 1,000 rows of signers (JSON or CSV rows); processed in the background',
    body: {
      name: 'BulkSendRequest',
      schema: ZBulkRequestDoc,
      accept: ['json', 'multipart'],
      jsonPart: 'bundle',
      filePart: {
        name: 'rows',
        mediaType: 'text/csv',
        jsonPartIs: ['BundleRequest', 'EnvelopeTemplateBundleRequest'],
      },
    },
    response: { status: 202, schema: ZBulkBatchResponseSchema },
    examples: { request: examples.bulkRequest, response: examples.bulkAccepted },
  },
  {
    route: 'GET /bundles/bulk/{id:uuid}',
    operationId: 'retrieveBulkSend',
    tag: 'Bundles',
    summary: "A bulk send's progress: counts by state and each row's bundle or errors",
    response: { status: 200, schema: ZBulkBatchResponseSchema },
    examples: { response: examples.bulkDone },
  },
  {
    route: 'GET /bundles/{id:slug}',
    operationId: 'retrieveBundle',
    tag: 'Bundles',
    summary: 'Retrieve a bundle',
    query: ZIncludeQuery,
    response: { status: 200, schema: ZBundleWithExtrasResponseSchema },
    examples: { response: examples.bundle },
  },
  {
    route: 'PATCH /bundles/{id:slug}',
    operationId: 'updateBundle',
    tag: 'Bundles',
    summary: 'Change a draft or sent bundle',
    body: { name: 'BundlePatch', schema: ZBundlePatchSchema },
    response: { status: 200, schema: ZBundleResponseSchema },
    conflict: true,
  },
  {
    route: 'POST /bundles/{id:slug}/send',
    operationId: 'sendBundle',
    tag: 'Bundles',
    summary: 'Send a draft',
    response: { status: 200, schema: ZBundleResponseSchema },
    conflict: true,
  },
  {
    route: 'PUT /bundles/{id:slug}/cancel',
    operationId: 'cancelBundle',
    tag: 'Bundles',
    summary: 'Cancel a bundle',
    response: { status: 200, schema: ZBundleResponseSchema },
    conflict: true,
  },
  {
    route: 'GET /bundles/{id:slug}/events',
    operationId: 'listBundleEvents',
    tag: 'Bundles',
    summary: "A bundle's audit events",
    query: z.object({
      include_actor: z.enum(['true', 'false']).optional().meta({
        description:
          "`true` adds this service's `actor` to each event: who acted (a signer, a user, an API key, the scheduler…) and their name where known. Without it, each event has BlueInk's four fields.",
      }),
    }),
    response: { status: 200, schema: ZBundleEventResponseSchema, array: true },
  },
  {
    route: 'GET /bundles/{id:slug}/data',
    operationId: 'retrieveBundleData',
    tag: 'Bundles',
    summary: "A complete bundle's field values",
    response: { status: 200, schema: ZBundleDataItemSchema, array: true },
    conflict: true,
  },
  {
    route: 'GET /bundles/{id:slug}/files',
    operationId: 'listBundleFiles',
    tag: 'Bundles',
    summary: "Time-limited links to a bundle's files",
    response: { status: 200, schema: ZBundleFileItemSchema, array: true },
    conflict: true,
  },
  {
    route: 'PUT /bundles/{id:slug}/files',
    operationId: 'requestInterimFiles',
    tag: 'Bundles',
    summary: 'Make interim files (early file access)',
    response: { status: 202, schema: ZInterimFilesResponseSchema },
    conflict: true,
  },
  {
    route: 'PUT /bundles/{id:slug}/validate',
    operationId: 'validateBundle',
    tag: 'Bundles',
    summary: 'Can this draft be sent?',
    response: { status: 200, schema: ZValidateDraftResponseSchema },
  },
  {
    route: 'PUT /bundles/{id:slug}/add_tags',
    operationId: 'addBundleTags',
    tag: 'Bundles',
    summary: 'Add tags',
    body: { name: 'TagsRequest', schema: ZTagsRequestSchema },
    response: { status: 200, schema: ZBundleResponseSchema },
  },
  {
    route: 'PUT /bundles/{id:slug}/remove_tags',
    operationId: 'removeBundleTags',
    tag: 'Bundles',
    summary: 'Remove tags',
    body: { name: 'TagsRequest', schema: ZTagsRequestSchema },
    response: { status: 200, schema: ZBundleResponseSchema },
  },
  {
    route: 'POST /verify',
    operationId: 'verifyFile',
    tag: 'Verify',
    summary: 'Is this a file the service sealed for this account? (the file, or its SHA-256)',
    body: { name: 'VerifyByHash', schema: ZByHash, accept: ['json', 'upload', 'multipart'] },
    response: { status: 200, schema: ZVerifyResponseSchema },
    tooComplex: true,
  },
];

const packets: TOperation[] = [
  {
    route: 'GET /packets/{id:slug}',
    operationId: 'retrievePacket',
    tag: 'Packets',
    summary: 'Retrieve a packet (one signer of a bundle)',
    response: { status: 200, schema: ZPacketResponseSchema },
  },
  {
    route: 'PATCH /packets/{id:slug}',
    operationId: 'updatePacket',
    tag: 'Packets',
    summary: "Change a signer's contact or delivery",
    body: { name: 'PacketPatch', schema: ZPacketPatchSchema },
    response: { status: 200, schema: ZPacketResponseSchema },
    conflict: true,
  },
  {
    route: 'POST /packets/{id:slug}/embed_url',
    operationId: 'createEmbedUrl',
    tag: 'Packets',
    summary: 'A single-use embedded signing link',
    response: { status: 201, schema: ZEmbedUrlResponseSchema },
    conflict: true,
  },
  {
    route: 'POST /packets/{id:slug}/kiosk_url',
    operationId: 'createKioskUrl',
    tag: 'Packets',
    summary: "A single-use link to sign in person on the sender's device (this service's own)",
    body: { name: 'KioskUrlRequest', schema: ZKioskUrlRequestSchema },
    response: { status: 201, schema: ZEmbedUrlResponseSchema },
    conflict: true,
  },
  {
    route: 'PUT /packets/{id:slug}/remind',
    operationId: 'remindPacket',
    tag: 'Packets',
    summary: 'Send the signer a reminder',
    response: { status: 200, schema: ZPacketResponseSchema },
    conflict: true,
  },
  {
    route: 'GET /packets/{id:slug}/coe',
    operationId: 'retrievePacketCoe',
    tag: 'Packets',
    summary: "The signer's Certificate of Evidence",
    response: { status: 200, schema: ZCoeResponseSchema },
    conflict: true,
  },
];

const persons = resource({
  path: '/persons',
  idKind: 'uuid',
  tag: 'Persons',
  name: ['Person', 'Persons'],
  words: ['a person', 'persons'],
  schema: ZPersonResponseSchema,
  filters: ZPersonFilterSchema,
  write: { name: 'PersonWrite', schema: ZPersonWriteSchema },
  patch: { name: 'PersonPatch', schema: ZPersonPatchSchema },
  replace: true,
  deleteConflict: true,
  example: { write: examples.personRequest, one: examples.person },
});

const templates = resource({
  path: '/templates',
  idKind: 'uuid',
  tag: 'Document templates',
  name: ['DocumentTemplate', 'DocumentTemplates'],
  words: ['a document template', 'document templates'],
  schema: ZDocTemplateResponseSchema,
  write: {
    name: 'DocumentTemplateCreate',
    schema: ZDocTemplateCreateDoc,
    accept: ['json', 'multipart'],
    jsonPart: 'template_request',
  },
  patch: { name: 'DocumentTemplatePatch', schema: ZDocTemplatePatchSchema },
  deleteConflict: true,
  summaries: { create: 'Create a document template (JSON, or multipart with the file)' },
  example: { write: examples.formTemplateRequest, one: examples.formTemplate },
  extra: [
    {
      route: 'POST /templates/preparation_session',
      operationId: 'createPreparationSession',
      tag: 'Document templates',
      summary: 'An embedded template preparation session',
      body: {
        name: 'PreparationSessionCreate',
        schema: ZPrepSessionCreateSchema,
        accept: ['json', 'multipart'],
        jsonPart: 'template_request',
      },
      response: { status: 201, schema: ZPrepSessionCreatedSchema },
    },
  ],
});

const envelopeTemplates = resource({
  path: '/envelope-templates',
  idKind: 'envelope-template',
  tag: 'Envelope templates',
  name: ['EnvelopeTemplate', 'EnvelopeTemplates'],
  words: ['an envelope template', 'envelope templates'],
  schema: ZEnvelopeTemplateResponseSchema,
  write: { name: 'EnvelopeTemplateWrite', schema: ZEnvelopeTemplateWriteSchema },
  patch: { name: 'EnvelopeTemplatePatch', schema: ZEnvelopeTemplatePatchSchema },
});

const webhooks: TOperation[] = [
  {
    route: 'GET /webhooks/secret',
    operationId: 'retrieveWebhookSecret',
    tag: 'Webhooks',
    summary: "The account's webhook signing secret (made on first read)",
    response: { status: 200, schema: ZWebhookSecretResponseSchema },
  },
  {
    route: 'POST /webhooks/secret/regenerate',
    operationId: 'regenerateWebhookSecret',
    tag: 'Webhooks',
    summary: 'A new webhook signing secret',
    response: { status: 200, schema: ZWebhookSecretResponseSchema },
  },
  {
    route: 'GET /webhooks/secret/regenerate',
    operationId: 'regenerateWebhookSecretWithGet',
    tag: 'Webhooks',
    summary: 'A new webhook signing secret (as some official clients call it)',
    response: { status: 200, schema: ZWebhookSecretResponseSchema },
  },
  {
    route: 'GET /webhooks/events',
    operationId: 'listWebhookEvents',
    tag: 'Webhooks',
    summary: 'List logged webhook events',
    list: { filters: ZWebhookEventListQuerySchema },
    response: { status: 200, schema: ZWebhookEventResponseSchema, array: true },
  },
  {
    route: 'GET /webhooks/events/{id:uuid}',
    operationId: 'retrieveWebhookEvent',
    tag: 'Webhooks',
    summary: 'Retrieve a webhook event',
    response: { status: 200, schema: ZWebhookEventResponseSchema },
  },
  {
    route: 'POST /webhooks/events/{id:uuid}/redeliver',
    operationId: 'redeliverWebhookEvent',
    tag: 'Webhooks',
    summary: 'Deliver a webhook event again',
    response: { status: 202, schema: ZWebhookEventResponseSchema },
    conflict: true,
  },
  {
    route: 'GET /webhooks/deliveries',
    operationId: 'listWebhookDeliveries',
    tag: 'Webhooks',
    summary: 'List delivery attempts',
    list: { filters: ZWebhookDeliveryListQuerySchema },
    response: { status: 200, schema: ZWebhookDeliveryResponseSchema, array: true },
  },
  {
    route: 'GET /webhooks/deliveries/{id:uuid}',
    operationId: 'retrieveWebhookDelivery',
    tag: 'Webhooks',
    summary: 'Retrieve a delivery attempt',
    response: { status: 200, schema: ZWebhookDeliveryResponseSchema },
  },
  ...resource({
    path: '/webhooks/headers',
    idKind: 'uuid',
    tag: 'Webhooks',
    name: ['WebhookHeader', 'WebhookHeaders'],
    words: ['an extra header', "webhooks' extra headers"],
    schema: ZWebhookHeaderResponseSchema,
    filters: ZWebhookHeaderListQuerySchema,
    write: { name: 'WebhookHeaderWrite', schema: ZWebhookHeaderWriteSchema },
    patch: { name: 'WebhookHeaderPatch', schema: ZWebhookHeaderPatchSchema },
    replace: true,
    summaries: { create: 'Add an extra header to a webhook', delete: 'Remove an extra header' },
  }),
  ...resource({
    path: '/webhooks',
    idKind: 'uuid',
    tag: 'Webhooks',
    name: ['Webhook', 'Webhooks'],
    words: ['a webhook', 'webhooks'],
    schema: ZWebhookResponseSchema,
    filters: ZWebhookListQuerySchema,
    write: { name: 'WebhookWrite', schema: ZWebhookWriteSchema },
    patch: { name: 'WebhookPatch', schema: ZWebhookPatchSchema },
    replace: true,
    example: { write: examples.webhookRequest, one: examples.webhook },
  }),
];

const account: TOperation[] = [
  {
    route: 'GET /rate_limit',
    operationId: 'retrieveRateLimit',
    tag: 'Account',
    summary: "The key's daily quota and what is left of it",
    response: { status: 200, schema: ZRateLimitResponseSchema },
    examples: { response: examples.rateLimit },
  },
];

export const OPERATIONS: readonly TOperation[] = [
  ...bundles,
  ...editorOperations,
  ...packets,
  ...BUNDLE_PAGE_OPERATIONS,
  ...persons,
  ...templates,
  ...envelopeTemplates,
  ...webhooks,
  ...account,
  ...SETTINGS_OPERATIONS,
  ...RETENTION_OPERATIONS,
  ...ERASURE_OPERATIONS,
  ...EXPORT_OPERATIONS,
  ...USERS_OPERATIONS,
];
