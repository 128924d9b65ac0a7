// Every endpoint of the keyed API, as the published description lists it: the route as the
// functions' routers declare it (`METHOD /path/{id:kind}`, below /api/v2), and the zod schemas of
// what it takes and answers. Only the list of endpoints is written here; every shape comes from
// the schemas the service validates requests with and types its answers by.
// test/unit/openapi-routes.test.ts fails when a router has a route this table lacks.
import * as z from 'zod';
import { ZEnvelopeCreateSchema } from '../domain/bundles/envelope-bundle-request';
import { ZByHash } from '../domain/evidence/verify-file';
import type { TBodyKind } from '../http/body';
import { ZBulkRequestSchema } from '../schemas/bulk';
import { ZBundleListQuerySchema } from '../schemas/bundle-list-query';
import { ZBundlePatchSchema } from '../schemas/bundle-patch';
import {
  ZBundleRequestSchema,
  ZDocumentRequestSchema,
  ZTemplateRequestSchema,
} from '../schemas/bundle-request';
import { ZDocTemplateCreateSchema, ZDocTemplatePatchSchema } from '../schemas/doc-template';
import { ZEnvelopeTemplatePatchSchema, ZEnvelopeTemplateWriteSchema } from '../schemas/envelope-template';
import { ZKioskUrlRequestSchema } from '../schemas/kiosk-url';
import { ZPacketPatchSchema } from '../schemas/packet-patch';
import { ZPersonFilterSchema, ZPersonPatchSchema, ZPersonWriteSchema } from '../schemas/person';
import { ZPrepSessionCreateSchema } from '../schemas/prep-session';
import { ZRateLimitResponseSchema } from '../schemas/responses/account';
import { ZBulkBatchResponseSchema } from '../schemas/responses/bulk';
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
} from '../schemas/responses/bundle';
import { ZDocTemplateResponseSchema, ZPrepSessionCreatedSchema } from '../schemas/responses/doc-template';
import { ZEnvelopeTemplateResponseSchema } from '../schemas/responses/envelope-template';
import { ZPersonResponseSchema } from '../schemas/responses/person';
import {
  ZWebhookDeliveryResponseSchema,
  ZWebhookEventResponseSchema,
  ZWebhookHeaderResponseSchema,
  ZWebhookResponseSchema,
  ZWebhookSecretResponseSchema,
} from '../schemas/responses/webhook';
import { ZTagsRequestSchema } from '../schemas/tags';
import {
  ZWebhookHeaderListQuerySchema,
  ZWebhookHeaderPatchSchema,
  ZWebhookHeaderWriteSchema,
  ZWebhookListQuerySchema,
  ZWebhookPatchSchema,
  ZWebhookWriteSchema,
} from '../schemas/webhook';
import { ZWebhookDeliveryListQuerySchema, ZWebhookEventListQuerySchema } from '../schemas/webhook-log';

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
}

/**
 * `status` may be left out (absent means "send"), which its preprocess hides from the converter;
 * and the documents are described item by item, as create-bundle parses them one by one.
 */
const ZBundleCreateDoc = ZBundleRequestSchema.extend({
  status: ZBundleRequestSchema.shape.status.optional(),
  documents: z.array(z.union([ZDocumentRequestSchema, ZTemplateRequestSchema])).min(1),
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
        'CSV with a header row: `<signer key>.<attribute>` columns fill that signer, other columns are field values.',
    }),
  ]),
});

const ZIncludeQuery = z.object({
  include: z
    .string()
    .optional()
    .meta({ description: 'A comma-separated list of data, events and files, each at most once.' }),
});

const bundles: TOperation[] = [
  {
    route: 'GET /bundles',
    operationId: 'listBundles',
    tag: 'Bundles',
    summary: 'List bundles',
    list: { filters: ZBundleListQuerySchema },
    response: { status: 200, schema: ZBundleResponseSchema, array: true },
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
  },
  {
    route: 'POST /bundles/create_from_envelope_template',
    operationId: 'createBundleFromEnvelopeTemplate',
    tag: 'Bundles',
    summary: 'Create a bundle from an envelope template',
    body: { name: 'EnvelopeTemplateBundleRequest', schema: ZEnvelopeBundleCreateDoc },
    response: { status: 201, schema: ZBundleResponseSchema },
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
  },
  {
    route: 'GET /bundles/bulk/{id:uuid}',
    operationId: 'retrieveBulkSend',
    tag: 'Bundles',
    summary: "A bulk send's progress: counts by state and each row's bundle or errors",
    response: { status: 200, schema: ZBulkBatchResponseSchema },
  },
  {
    route: 'GET /bundles/{id:slug}',
    operationId: 'retrieveBundle',
    tag: 'Bundles',
    summary: 'Retrieve a bundle',
    query: ZIncludeQuery,
    response: { status: 200, schema: ZBundleWithExtrasResponseSchema },
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

const persons: TOperation[] = [
  {
    route: 'GET /persons',
    operationId: 'listPersons',
    tag: 'Persons',
    summary: 'List persons',
    list: { filters: ZPersonFilterSchema },
    response: { status: 200, schema: ZPersonResponseSchema, array: true },
  },
  {
    route: 'POST /persons',
    operationId: 'createPerson',
    tag: 'Persons',
    summary: 'Create a person',
    body: { name: 'PersonWrite', schema: ZPersonWriteSchema },
    response: { status: 201, schema: ZPersonResponseSchema },
  },
  {
    route: 'GET /persons/{id:uuid}',
    operationId: 'retrievePerson',
    tag: 'Persons',
    summary: 'Retrieve a person',
    response: { status: 200, schema: ZPersonResponseSchema },
  },
  {
    route: 'PUT /persons/{id:uuid}',
    operationId: 'replacePerson',
    tag: 'Persons',
    summary: 'Replace a person',
    body: { name: 'PersonWrite', schema: ZPersonWriteSchema },
    response: { status: 200, schema: ZPersonResponseSchema },
  },
  {
    route: 'PATCH /persons/{id:uuid}',
    operationId: 'updatePerson',
    tag: 'Persons',
    summary: 'Change a person',
    body: { name: 'PersonPatch', schema: ZPersonPatchSchema },
    response: { status: 200, schema: ZPersonResponseSchema },
  },
  {
    route: 'DELETE /persons/{id:uuid}',
    operationId: 'deletePerson',
    tag: 'Persons',
    summary: 'Delete a person',
    response: { status: 204 },
    conflict: true,
  },
];

const templates: TOperation[] = [
  {
    route: 'GET /templates',
    operationId: 'listDocumentTemplates',
    tag: 'Document templates',
    summary: 'List document templates',
    list: {},
    response: { status: 200, schema: ZDocTemplateResponseSchema, array: true },
  },
  {
    route: 'POST /templates',
    operationId: 'createDocumentTemplate',
    tag: 'Document templates',
    summary: 'Create a document template (JSON, or multipart with the file)',
    body: {
      name: 'DocumentTemplateCreate',
      schema: ZDocTemplateCreateSchema,
      accept: ['json', 'multipart'],
      jsonPart: 'template_request',
    },
    response: { status: 201, schema: ZDocTemplateResponseSchema },
  },
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
  {
    route: 'GET /templates/{id:uuid}',
    operationId: 'retrieveDocumentTemplate',
    tag: 'Document templates',
    summary: 'Retrieve a document template',
    response: { status: 200, schema: ZDocTemplateResponseSchema },
  },
  {
    route: 'PATCH /templates/{id:uuid}',
    operationId: 'updateDocumentTemplate',
    tag: 'Document templates',
    summary: 'Change a document template',
    body: { name: 'DocumentTemplatePatch', schema: ZDocTemplatePatchSchema },
    response: { status: 200, schema: ZDocTemplateResponseSchema },
  },
  {
    route: 'DELETE /templates/{id:uuid}',
    operationId: 'deleteDocumentTemplate',
    tag: 'Document templates',
    summary: 'Delete a document template',
    response: { status: 204 },
    conflict: true,
  },
];

const envelopeTemplates: TOperation[] = [
  {
    route: 'GET /envelope-templates',
    operationId: 'listEnvelopeTemplates',
    tag: 'Envelope templates',
    summary: 'List envelope templates',
    list: {},
    response: { status: 200, schema: ZEnvelopeTemplateResponseSchema, array: true },
  },
  {
    route: 'POST /envelope-templates',
    operationId: 'createEnvelopeTemplate',
    tag: 'Envelope templates',
    summary: 'Create an envelope template',
    body: { name: 'EnvelopeTemplateWrite', schema: ZEnvelopeTemplateWriteSchema },
    response: { status: 201, schema: ZEnvelopeTemplateResponseSchema },
  },
  {
    route: 'GET /envelope-templates/{id:envelope-template}',
    operationId: 'retrieveEnvelopeTemplate',
    tag: 'Envelope templates',
    summary: 'Retrieve an envelope template',
    response: { status: 200, schema: ZEnvelopeTemplateResponseSchema },
  },
  {
    route: 'PATCH /envelope-templates/{id:envelope-template}',
    operationId: 'updateEnvelopeTemplate',
    tag: 'Envelope templates',
    summary: 'Change an envelope template',
    body: { name: 'EnvelopeTemplatePatch', schema: ZEnvelopeTemplatePatchSchema },
    response: { status: 200, schema: ZEnvelopeTemplateResponseSchema },
  },
  {
    route: 'DELETE /envelope-templates/{id:envelope-template}',
    operationId: 'deleteEnvelopeTemplate',
    tag: 'Envelope templates',
    summary: 'Delete an envelope template',
    response: { status: 204 },
  },
];

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
  {
    route: 'GET /webhooks/headers',
    operationId: 'listWebhookHeaders',
    tag: 'Webhooks',
    summary: "List webhooks' extra headers",
    list: { filters: ZWebhookHeaderListQuerySchema },
    response: { status: 200, schema: ZWebhookHeaderResponseSchema, array: true },
  },
  {
    route: 'POST /webhooks/headers',
    operationId: 'createWebhookHeader',
    tag: 'Webhooks',
    summary: 'Add an extra header to a webhook',
    body: { name: 'WebhookHeaderWrite', schema: ZWebhookHeaderWriteSchema },
    response: { status: 201, schema: ZWebhookHeaderResponseSchema },
  },
  {
    route: 'GET /webhooks/headers/{id:uuid}',
    operationId: 'retrieveWebhookHeader',
    tag: 'Webhooks',
    summary: 'Retrieve an extra header',
    response: { status: 200, schema: ZWebhookHeaderResponseSchema },
  },
  {
    route: 'PUT /webhooks/headers/{id:uuid}',
    operationId: 'replaceWebhookHeader',
    tag: 'Webhooks',
    summary: 'Replace an extra header',
    body: { name: 'WebhookHeaderWrite', schema: ZWebhookHeaderWriteSchema },
    response: { status: 200, schema: ZWebhookHeaderResponseSchema },
  },
  {
    route: 'PATCH /webhooks/headers/{id:uuid}',
    operationId: 'updateWebhookHeader',
    tag: 'Webhooks',
    summary: 'Change an extra header',
    body: { name: 'WebhookHeaderPatch', schema: ZWebhookHeaderPatchSchema },
    response: { status: 200, schema: ZWebhookHeaderResponseSchema },
  },
  {
    route: 'DELETE /webhooks/headers/{id:uuid}',
    operationId: 'deleteWebhookHeader',
    tag: 'Webhooks',
    summary: 'Remove an extra header',
    response: { status: 204 },
  },
  {
    route: 'GET /webhooks',
    operationId: 'listWebhooks',
    tag: 'Webhooks',
    summary: 'List webhooks',
    list: { filters: ZWebhookListQuerySchema },
    response: { status: 200, schema: ZWebhookResponseSchema, array: true },
  },
  {
    route: 'POST /webhooks',
    operationId: 'createWebhook',
    tag: 'Webhooks',
    summary: 'Create a webhook',
    body: { name: 'WebhookWrite', schema: ZWebhookWriteSchema },
    response: { status: 201, schema: ZWebhookResponseSchema },
  },
  {
    route: 'GET /webhooks/{id:uuid}',
    operationId: 'retrieveWebhook',
    tag: 'Webhooks',
    summary: 'Retrieve a webhook',
    response: { status: 200, schema: ZWebhookResponseSchema },
  },
  {
    route: 'PUT /webhooks/{id:uuid}',
    operationId: 'replaceWebhook',
    tag: 'Webhooks',
    summary: 'Replace a webhook',
    body: { name: 'WebhookWrite', schema: ZWebhookWriteSchema },
    response: { status: 200, schema: ZWebhookResponseSchema },
  },
  {
    route: 'PATCH /webhooks/{id:uuid}',
    operationId: 'updateWebhook',
    tag: 'Webhooks',
    summary: 'Change a webhook',
    body: { name: 'WebhookPatch', schema: ZWebhookPatchSchema },
    response: { status: 200, schema: ZWebhookResponseSchema },
  },
  {
    route: 'DELETE /webhooks/{id:uuid}',
    operationId: 'deleteWebhook',
    tag: 'Webhooks',
    summary: 'Delete a webhook',
    response: { status: 204 },
  },
];

const account: TOperation[] = [
  {
    route: 'GET /rate_limit',
    operationId: 'retrieveRateLimit',
    tag: 'Account',
    summary: "The key's daily quota and what is left of it",
    response: { status: 200, schema: ZRateLimitResponseSchema },
  },
];

export const OPERATIONS: readonly TOperation[] = [
  ...bundles,
  ...packets,
  ...persons,
  ...templates,
  ...envelopeTemplates,
  ...webhooks,
  ...account,
];
