import { createRequire } from 'node:module';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import { aBundle, aPdfB64 } from '../helpers/bundles';
import { eventually, startReceiver, type TReceivedCall, type TReceiver } from '../helpers/receiver';
import { startTestRuntime } from '../helpers/runtime';
import {
  blueinkClient,
  describeRequest,
  failureOf,
  isApiErrorBody,
  paginationHeaderOf,
  type TBlueInkClient,
  type TClientError,
  type TClientResponse,
  type TJson,
} from './client';

// Webhooks through the official BlueInk JavaScript client (@blueink360/blueink-client-js 1.4.0),
// unchanged. Its webhook subclient (src/blueink/subclients/webhook.js) has 18 methods, every one
// called here:
//   webhooks      list, create, retrieve, update (PUT), partialUpdate (PATCH), delete
//   extra headers listHeader, createHeader, retrieveHeader, updateHeader (PUT),
//                 partialUpdateHeader (PATCH), deleteHeader
//   log           listEvents, retrieveEvent, listDeliveries, retrieveDelivery
//   secret        retrieveSecret, regenerateSecret (POST /webhooks/secret/regenerate/)
// What the client does not have: no pagedList for webhooks (its PaginationHelper, exported by the
// package, is driven by hand below, as a client user would), and no call for
// POST /webhooks/events/{id}/redeliver/. Its README names `listHeaders`; the method is `listHeader`.

type TParams = Record<string, unknown>;
interface TWebhookSubClient {
  list(params?: TParams): Promise<TClientResponse>;
  create(data: object): Promise<TClientResponse>;
  retrieve(webhookId: string): Promise<TClientResponse>;
  update(webhookId: string, data: object): Promise<TClientResponse>;
  partialUpdate(webhookId: string, data: object): Promise<TClientResponse>;
  delete(webhookId: string): Promise<TClientResponse>;
  listHeader(params?: TParams): Promise<TClientResponse>;
  createHeader(data: object): Promise<TClientResponse>;
  retrieveHeader(headerId: string): Promise<TClientResponse>;
  updateHeader(headerId: string, data: object): Promise<TClientResponse>;
  partialUpdateHeader(headerId: string, data: object): Promise<TClientResponse>;
  deleteHeader(headerId: string): Promise<TClientResponse>;
  listEvents(params?: TParams): Promise<TClientResponse>;
  retrieveEvent(eventId: string): Promise<TClientResponse>;
  listDeliveries(params?: TParams): Promise<TClientResponse>;
  retrieveDelivery(deliveryId: string): Promise<TClientResponse>;
  retrieveSecret(): Promise<TClientResponse>;
  regenerateSecret(): Promise<TClientResponse>;
}

// The package's own constants and pagination helper, by their paths in the package (no exports map;
// neither file loads dotenv, so no stub is needed).
const requireFromHere = createRequire(import.meta.url);
const { EVENT_TYPE } = requireFromHere('@blueink360/blueink-client-js/src/blueink/constants') as {
  EVENT_TYPE: Record<string, string>;
};
const PaginationHelper = requireFromHere(
  '@blueink360/blueink-client-js/src/blueink/helper/pagination',
) as new (
  pagedRequest: (params: TParams) => Promise<TClientResponse>,
  params: TParams,
) => AsyncGenerator<TClientResponse>;

let runtime: TRuntime;
let client: TBlueInkClient;
let webhooks: TWebhookSubClient;
let receiver: TReceiver;
let b64: string;

// A fresh account, so every list holds exactly what this file made.
beforeAll(async () => {
  // 1/240: retries after 1, 3, 9… seconds instead of minutes.
  runtime = await startTestRuntime({ webhookRetryScale: 1 / 240 });
  const account = await runtime.seedAccount('Compat Webhooks', 'owner@compat-webhooks.example');
  client = blueinkClient(runtime, account.apiKey);
  webhooks = (client as unknown as { webhooks: TWebhookSubClient }).webhooks;
  receiver = await startReceiver();
  b64 = await aPdfB64();
});
afterAll(async () => {
  await runtime.stop();
  await receiver.stop();
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/;
const idsOf = (res: TClientResponse): string[] => res.data.map((x: TJson) => x.id);

/** A client call that must be served; a refusal fails with the exact request the client sent. */
async function served(call: Promise<TClientResponse>): Promise<TClientResponse> {
  try {
    return await call;
  } catch (e) {
    const error = e as TClientError;
    if (error?.isAxiosError && error.response) throw new Error(`not served: ${describeRequest(error)}`);
    throw e;
  }
}

/** The request body the client put on the wire for a failed call. */
const sentBody = (error: TClientError) => JSON.parse(String(error.config.data));

describe('the webhook subclient', () => {
  it('has exactly the methods this file covers', () => {
    expect(Object.keys(webhooks).sort()).toEqual(
      [
        'list',
        'create',
        'retrieve',
        'update',
        'partialUpdate',
        'delete',
        'listHeader',
        'createHeader',
        'retrieveHeader',
        'updateHeader',
        'partialUpdateHeader',
        'deleteHeader',
        'listEvents',
        'retrieveEvent',
        'listDeliveries',
        'retrieveDelivery',
        'retrieveSecret',
        'regenerateSecret',
      ].sort(),
    );
  });
});

describe('webhooks.create, retrieve, list, update, partialUpdate, delete', () => {
  /** Made in order here; the list tests read them back. */
  const made: TJson[] = [];

  it('create: takes the README sample as is and answers 201 with the webhook', async () => {
    // The client README's webHookSample, typo (`enable`) included: it is ignored, enabled defaults on.
    const res = await served(
      webhooks.create({
        url: 'https://www.example.com/01/',
        enable: true,
        json: true,
        event_types: [EVENT_TYPE.EVENT_BUNDLE_LAUNCHED, EVENT_TYPE.EVENT_PACKET_COMPLETE],
      }),
    );
    expect(res.status).toBe(201);
    expect(res.pagination).toBeNull();
    expect(res.data).toEqual({
      id: expect.stringMatching(UUID),
      url: 'https://www.example.com/01/',
      enabled: true,
      json: true,
      event_types: ['bundle_sent', 'packet_complete'],
      extra_headers: [],
    });
    made.push(res.data);
  });

  it('create: takes every field of its JSDoc (name, url, event_types, enabled, json) and inline headers', async () => {
    // The JSDoc calls `name` required; the API's Webhook has no name, so it is accepted and not kept.
    const res = await served(
      webhooks.create({
        name: 'Compat hook',
        url: 'https://hooks.example.com/two',
        event_types: [EVENT_TYPE.EVENT_BUNDLE_COMPLETE, EVENT_TYPE.EVENT_BUNDLE_CANCELLED],
        enabled: false,
        json: false,
        extra_headers: [
          { name: 'X-Tenant', value: 'acme', order: 2 },
          { name: 'Authorization', value: 'Bearer t0k', order: 1 },
        ],
      }),
    );
    expect(res.status).toBe(201);
    expect(res.data).toMatchObject({
      url: 'https://hooks.example.com/two',
      enabled: false,
      json: false,
      event_types: ['bundle_complete', 'bundle_cancelled'],
    });
    // Kept in the order given; `order` is the order they are sent in.
    expect(res.data.extra_headers.map((h: TJson) => [h.name, h.value, h.order, h.webhook])).toEqual([
      ['X-Tenant', 'acme', 2, res.data.id],
      ['Authorization', 'Bearer t0k', 1, res.data.id],
    ]);
    made.push(res.data);
    made.push(
      (
        await served(
          webhooks.create({ url: 'https://hooks.example.com/three', event_types: ['packet_viewed'] }),
        )
      ).data,
    );
  });

  it('create: a refusal rejects as an axios error with 400 and per-field errors', async () => {
    const { status, body, error } = await failureOf(webhooks.create({ url: 'not a url', event_types: [] }));
    expect(status).toBe(400);
    expect(isApiErrorBody(body)).toBe(true);
    expect(body.errors.map((e: TJson) => e.field).sort()).toEqual(['event_types', 'url']);
    expect(error.config.method).toBe('post');
    expect(sentBody(error)).toEqual({ url: 'not a url', event_types: [] });
  });

  it('retrieve: answers the stored webhook', async () => {
    for (const w of made) {
      const res = await served(webhooks.retrieve(w.id));
      expect(res.status).toBe(200);
      expect(res.pagination).toBeNull();
      expect(res.data).toEqual(w);
    }
    const { status, body } = await failureOf(webhooks.retrieve('9d0c1b2a-0000-4000-8000-000000000000'));
    expect(status).toBe(404);
    expect(isApiErrorBody(body)).toBe(true);
  });

  it('list: answers every webhook, newest first, with the pagination header parsed by the client', async () => {
    const res = await served(webhooks.list());
    expect(res.status).toBe(200);
    expect(res.data).toEqual([...made].reverse());
    expect(paginationHeaderOf(res)).toBe('1,1,50,3');
    expect(res.pagination).toEqual({ pageNumber: 1, totalPages: 1, perPage: 50, totalResults: 3 });
  });

  it('list: honours enabled, event_type and event_type__in as the client serialises them', async () => {
    expect(idsOf(await served(webhooks.list({ enabled: false })))).toEqual([made[1].id]);
    expect(idsOf(await served(webhooks.list({ enabled: true })))).toEqual([made[2].id, made[0].id]);
    expect(idsOf(await served(webhooks.list({ event_type: EVENT_TYPE.EVENT_PACKET_COMPLETE })))).toEqual([
      made[0].id,
    ]);
    const anyOf = await served(webhooks.list({ event_type__in: 'packet_viewed,bundle_cancelled' }));
    expect(idsOf(anyOf)).toEqual([made[2].id, made[1].id]);
    expect(anyOf.pagination).toEqual({ pageNumber: 1, totalPages: 1, perPage: 50, totalResults: 2 });
    const { status, body } = await failureOf(webhooks.list({ event_type: 'nope' }));
    expect(status).toBe(400);
    expect(body.errors.map((e: TJson) => e.field)).toEqual(['event_type']);
  });

  it('list: pages by page and per_page, and the package PaginationHelper walks every page', async () => {
    const second = await served(webhooks.list({ per_page: 2, page: 2 }));
    expect(second.pagination).toEqual({ pageNumber: 2, totalPages: 2, perPage: 2, totalResults: 3 });
    expect(idsOf(second)).toEqual([made[0].id]);

    const pages: TClientResponse[] = [];
    for await (const page of new PaginationHelper((p) => webhooks.list(p), { page: 1, per_page: 2 })) {
      pages.push(page);
      if (pages.length > 4) break; // a broken header would loop forever
    }
    expect(pages.map((p) => p.pagination)).toEqual([
      { pageNumber: 1, totalPages: 2, perPage: 2, totalResults: 3 },
      { pageNumber: 2, totalPages: 2, perPage: 2, totalResults: 3 },
    ]);
    expect(pages.flatMap(idsOf)).toEqual([...made].reverse().map((w) => w.id));
  });

  it('update: replaces the webhook (the README update sample); what it leaves out is reset', async () => {
    const target = made[1];
    const res = await served(
      webhooks.update(target.id, {
        url: 'https://www.example.com/01/',
        enabled: false,
        event_types: [EVENT_TYPE.EVENT_PACKET_VIEWED],
      }),
    );
    expect(res.status).toBe(200);
    expect(res.data).toEqual({
      id: target.id,
      url: 'https://www.example.com/01/',
      enabled: false,
      json: true,
      event_types: ['packet_viewed'],
      extra_headers: [],
    });
    expect((await served(webhooks.retrieve(target.id))).data).toEqual(res.data);
    made[1] = res.data;

    const { status, body, error } = await failureOf(webhooks.update(target.id, { enabled: true }));
    expect(status).toBe(400);
    expect(body.errors.map((e: TJson) => e.field).sort()).toEqual(['event_types', 'url']);
    expect(error.config.method).toBe('put');
  });

  it('partialUpdate: changes only what is given', async () => {
    const target = made[1];
    const res = await served(webhooks.partialUpdate(target.id, { enabled: true }));
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ ...target, enabled: true });
    const again = await served(
      webhooks.partialUpdate(target.id, {
        event_types: [EVENT_TYPE.EVENT_BUNDLE_ERROR, EVENT_TYPE.EVENT_BUNDLE_DOCS_READY],
        extra_headers: [{ name: 'X-Patched', value: 'yes' }],
      }),
    );
    expect(again.data).toMatchObject({
      url: target.url,
      enabled: true,
      json: true,
      event_types: ['bundle_error', 'bundle_docs_ready'],
    });
    expect(again.data.extra_headers.map((h: TJson) => h.name)).toEqual(['X-Patched']);
    expect((await served(webhooks.retrieve(target.id))).data).toEqual(again.data);
    expect(idsOf(await served(webhooks.list({ enabled: false })))).toEqual([]);
    made[1] = again.data;
  });

  // made[0] subscribes to bundle_sent at www.example.com: gone before any bundle is sent.
  afterAll(async () => {
    for (const w of made.slice(0, 2)) await webhooks.delete(w.id);
  });

  it('delete: answers 204 with no body; the webhook is gone from retrieve and list', async () => {
    const target = made[2];
    const res = await served(webhooks.delete(target.id));
    expect(res.status).toBe(204);
    expect(res.data).toBe('');
    expect((await failureOf(webhooks.retrieve(target.id))).status).toBe(404);
    expect((await failureOf(webhooks.delete(target.id))).status).toBe(404);
    const left = await served(webhooks.list());
    expect(idsOf(left)).toEqual([made[1].id, made[0].id]);
    expect(left.pagination?.totalResults).toBe(2);
  });
});

describe("webhooks.create with the client's EVENT_TYPE constants", () => {
  /** Subscribes with one type and removes the webhook at once: nothing may be delivered to it. */
  async function subscribeTo(eventType: string): Promise<TClientResponse> {
    const res = await served(
      webhooks.create({ url: 'https://hooks.example.com/types', event_types: [eventType] }),
    );
    await served(webhooks.delete(res.data.id));
    return res;
  }

  it('subscribes to every one of its constants, those of newer BlueInk versions too', async () => {
    const all = Object.keys(EVENT_TYPE);
    expect(all).toHaveLength(12);
    for (const k of all) {
      const res = await subscribeTo(EVENT_TYPE[k]!);
      expect(res.status, k).toBe(201);
      expect(res.data.event_types).toEqual([EVENT_TYPE[k]]);
    }
  });
});

describe('webhooks.createHeader, retrieveHeader, listHeader, updateHeader, partialUpdateHeader, deleteHeader', () => {
  let hook: TJson;
  let other: TJson;
  let header: TJson;

  beforeAll(async () => {
    hook = (
      await served(
        webhooks.create({
          url: 'https://hooks.example.com/headers',
          event_types: ['bundle_sent'],
          extra_headers: [{ name: 'X-First', value: '1' }],
        }),
      )
    ).data;
    other = (
      await served(
        webhooks.create({
          url: 'https://hooks.example.com/other',
          event_types: ['bundle_complete'],
          extra_headers: [{ name: 'X-Other', value: 'o' }],
        }),
      )
    ).data;
  });

  it('createHeader: takes the README sample and answers 201 with the header', async () => {
    const res = await served(
      webhooks.createHeader({
        name: 'Courage_The_Cowardly_Webhook',
        value: 'Muriel Bagge',
        order: 0,
        webhook: hook.id,
      }),
    );
    expect(res.status).toBe(201);
    expect(res.pagination).toBeNull();
    expect(res.data).toEqual({
      id: expect.stringMatching(UUID),
      webhook: hook.id,
      name: 'Courage_The_Cowardly_Webhook',
      value: 'Muriel Bagge',
      order: 0,
    });
    header = res.data;
    // The webhook carries it now.
    const names = (await served(webhooks.retrieve(hook.id))).data.extra_headers.map((h: TJson) => h.name);
    expect(names.sort()).toEqual(['Courage_The_Cowardly_Webhook', 'X-First']);

    const { status, body, error } = await failureOf(
      webhooks.createHeader({ webhook: hook.id, name: 'Bad Name', value: 'v' }),
    );
    expect(status).toBe(400);
    expect(body.errors.map((e: TJson) => e.field)).toEqual(['name']);
    expect(sentBody(error)).toEqual({ webhook: hook.id, name: 'Bad Name', value: 'v' });
  });

  it('retrieveHeader: answers the stored header, 404 for an unknown one', async () => {
    const res = await served(webhooks.retrieveHeader(header.id));
    expect(res.status).toBe(200);
    expect(res.data).toEqual(header);
    expect((await failureOf(webhooks.retrieveHeader('9d0c1b2a-0000-4000-8000-000000000000'))).status).toBe(
      404,
    );
  });

  it('listHeader: answers every header with pagination, and filters by webhook', async () => {
    const all = await served(webhooks.listHeader());
    expect(all.status).toBe(200);
    // The first block's webhooks are gone; these two webhooks hold three headers between them.
    expect(all.data.map((h: TJson) => h.name).sort()).toEqual([
      'Courage_The_Cowardly_Webhook',
      'X-First',
      'X-Other',
    ]);
    expect(all.pagination).toEqual({ pageNumber: 1, totalPages: 1, perPage: 50, totalResults: 3 });

    const mine = await served(webhooks.listHeader({ webhook: hook.id }));
    expect(mine.data).toContainEqual(header);
    expect(mine.data.map((h: TJson) => h.webhook)).toEqual([hook.id, hook.id]);
    expect(mine.pagination?.totalResults).toBe(2);
    const theirs = await served(webhooks.listHeader({ webhook: other.id }));
    expect(theirs.data.map((h: TJson) => h.name)).toEqual(['X-Other']);

    const paged = await served(webhooks.listHeader({ per_page: 2, page: 2 }));
    expect(paged.pagination).toEqual({ pageNumber: 2, totalPages: 2, perPage: 2, totalResults: 3 });
    expect(paged.data).toHaveLength(1);
  });

  it('updateHeader: replaces the header (PUT) and the webhook shows the change', async () => {
    const res = await served(
      webhooks.updateHeader(header.id, { webhook: hook.id, name: 'X-Api-Key', value: 'k-2', order: 5 }),
    );
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ id: header.id, webhook: hook.id, name: 'X-Api-Key', value: 'k-2', order: 5 });
    expect((await served(webhooks.retrieveHeader(header.id))).data).toEqual(res.data);
    expect((await served(webhooks.retrieve(hook.id))).data.extra_headers).toContainEqual(res.data);
    header = res.data;

    const { status, body, error } = await failureOf(webhooks.updateHeader(header.id, { value: 'only' }));
    expect(status).toBe(400);
    expect(body.errors.map((e: TJson) => e.field).sort()).toEqual(['name', 'webhook']);
    expect(error.config.method).toBe('put');
  });

  it('partialUpdateHeader: changes only what is given (PATCH)', async () => {
    const res = await served(webhooks.partialUpdateHeader(header.id, { value: 'k-3' }));
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ ...header, value: 'k-3' });
    expect((await served(webhooks.retrieveHeader(header.id))).data).toEqual(res.data);
    header = res.data;
  });

  it('deleteHeader: answers 204 with no body; the header is gone, the webhook keeps the others', async () => {
    const res = await served(webhooks.deleteHeader(header.id));
    expect(res.status).toBe(204);
    expect(res.data).toBe('');
    expect((await failureOf(webhooks.retrieveHeader(header.id))).status).toBe(404);
    expect((await served(webhooks.retrieve(hook.id))).data.extra_headers.map((h: TJson) => h.name)).toEqual([
      'X-First',
    ]);
    expect((await served(webhooks.listHeader({ webhook: hook.id }))).pagination?.totalResults).toBe(1);
  });

  afterAll(async () => {
    // Not subscribed to anything the delivery tests fire at the receiver, but keep the account tidy.
    await webhooks.delete(hook.id);
    await webhooks.delete(other.id);
  });
});

describe('webhooks.retrieveSecret, regenerateSecret', () => {
  it('retrieveSecret: answers the account secret, the same on every read', async () => {
    const res = await served(webhooks.retrieveSecret());
    expect(res.status).toBe(200);
    expect(res.pagination).toBeNull();
    expect(res.data).toEqual({
      secret: expect.stringMatching(/^[1-9A-HJ-NP-Za-km-z]{43,44}$/),
      create_date: expect.stringMatching(ISO),
    });
    expect((await served(webhooks.retrieveSecret())).data).toEqual(res.data);
  });

  it('regenerateSecret: a POST with no body answers a new secret, which retrieveSecret then answers', async () => {
    const before = (await served(webhooks.retrieveSecret())).data;
    const res = await served(webhooks.regenerateSecret());
    expect(res.status).toBe(200);
    expect((res as unknown as { config: { method: string; data?: unknown } }).config).toMatchObject({
      method: 'post',
      data: undefined,
    });
    expect(res.data).toEqual({ secret: expect.any(String), create_date: expect.stringMatching(ISO) });
    expect(res.data.secret).not.toBe(before.secret);
    expect((await served(webhooks.retrieveSecret())).data).toEqual(res.data);
  });
});

describe('webhooks.listEvents, retrieveEvent, listDeliveries, retrieveDelivery', () => {
  let ok: TJson;
  let flaky: TJson;
  let bundleId: string;
  let sent: TReceivedCall;
  const body = (c: TReceivedCall) => JSON.parse(c.body);
  /** Deliveries as `event_type:status`. */
  const types = (r: TClientResponse) => r.data.map((d: TJson) => `${d.event_type}:${d.status}`);

  beforeAll(async () => {
    // Both made through the client: one answered at once, one refused on its first attempt.
    ok = (
      await served(
        webhooks.create({
          url: receiver.url('/compat-ok'),
          event_types: [EVENT_TYPE.EVENT_BUNDLE_LAUNCHED, EVENT_TYPE.EVENT_BUNDLE_CANCELLED],
        }),
      )
    ).data;
    await served(webhooks.createHeader({ webhook: ok.id, name: 'X-Compat', value: 'from-the-client' }));
    flaky = (
      await served(webhooks.create({ url: receiver.url('/compat-flaky'), event_types: ['bundle_sent'] }))
    ).data;
    receiver.on('/compat-flaky', (_c, nth) => (nth === 1 ? 500 : 204));

    const created = await served(client.bundles.create(aBundle({ custom_key: 'compat-77' }, b64)));
    expect(created.status).toBe(201);
    expect(created.data.status).toBe('se');
    bundleId = created.data.id;
    sent = await eventually(
      () => receiver.callsTo('/compat-ok').length === 1 && receiver.callsTo('/compat-ok')[0],
      20_000,
      'bundle_sent at the receiver',
    );
  });

  it('the bundle_sent call came with the extra header and signed with the secret retrieveSecret answers', async () => {
    expect(body(sent)).toMatchObject({
      event_type: 'bundle_sent',
      payload: { bundle_id: bundleId, custom_key: 'compat-77' },
    });
    expect(sent.headers['x-compat']).toBe('from-the-client');
    const { secret } = (await served(webhooks.retrieveSecret())).data;
    expect(
      new Webhook(secret, { format: 'raw' }).verify(sent.body, sent.headers as Record<string, string>),
    ).toEqual(body(sent));
  });

  it('listEvents: lists the delivered bundle_sent with success true, pagination parsed', async () => {
    const eventId = body(sent).event_id;
    const res = await eventually(async () => {
      const r = await served(webhooks.listEvents({ webhook: ok.id }));
      return r.data.length === 1 && r.data[0].success === true && r;
    });
    expect(res.status).toBe(200);
    expect(res.pagination).toEqual({ pageNumber: 1, totalPages: 1, perPage: 50, totalResults: 1 });
    expect(res.data[0]).toEqual({
      pk: eventId,
      id: eventId,
      webhook: ok.id,
      event_type: 'bundle_sent',
      created: expect.stringMatching(ISO),
      status: 200,
      success: true,
      payload: expect.any(String),
      deliveries: [
        { pk: expect.stringMatching(UUID), timestamp: expect.stringMatching(ISO), status: 200, message: '' },
      ],
    });
    // The log keeps the call's payload as JSON text (the WebhookEvent shape).
    expect(JSON.parse(res.data[0].payload)).toEqual({ bundle_id: bundleId, custom_key: 'compat-77' });
  });

  it('retrieveEvent: answers the event as listed; 404 for an unknown one', async () => {
    const [listed] = (await served(webhooks.listEvents({ webhook: ok.id }))).data;
    const res = await served(webhooks.retrieveEvent(listed.pk));
    expect(res.status).toBe(200);
    expect(res.pagination).toBeNull();
    expect(res.data).toEqual(listed);
    expect((await failureOf(webhooks.retrieveEvent('9d0c1b2a-0000-4000-8000-000000000000'))).status).toBe(
      404,
    );
  });

  it('the retried webhook: its event succeeds on the second attempt, both attempts logged', async () => {
    const event = await eventually(
      async () => {
        const r = await served(webhooks.listEvents({ webhook: flaky.id }));
        return r.data[0]?.success === true && r.data[0];
      },
      20_000,
      'the retried delivery',
    );
    expect(event).toMatchObject({ webhook: flaky.id, event_type: 'bundle_sent', status: 204, success: true });
    expect(event.deliveries.map((d: TJson) => d.status)).toEqual([500, 204]);
    expect(receiver.callsTo('/compat-flaky')).toHaveLength(2);
  });

  it('listEvents: honours webhook, event_type, event_type__in, status, status__in, success and dates', async () => {
    // A cancel through the client fires bundle_cancelled to the first webhook only.
    expect((await served(client.bundles.cancel(bundleId))).status).toBe(200);
    await eventually(async () => {
      const r = await served(webhooks.listEvents({ event_type: EVENT_TYPE.EVENT_BUNDLE_CANCELLED }));
      return r.data[0]?.success === true;
    });
    const all = await served(webhooks.listEvents());
    expect(all.data).toHaveLength(3);
    expect(all.pagination?.totalResults).toBe(3);
    const who = (r: TClientResponse) =>
      r.data.map((e: TJson) => `${e.webhook === ok.id ? 'ok' : 'flaky'}:${e.event_type}`);
    // Newest first.
    expect(who(all)[0]).toBe('ok:bundle_cancelled');
    expect(who(all).slice(1).sort()).toEqual(['flaky:bundle_sent', 'ok:bundle_sent']);

    expect(who(await served(webhooks.listEvents({ webhook: ok.id })))).toEqual([
      'ok:bundle_cancelled',
      'ok:bundle_sent',
    ]);
    expect(who(await served(webhooks.listEvents({ webhook: flaky.id })))).toEqual(['flaky:bundle_sent']);
    expect(who(await served(webhooks.listEvents({ event_type: 'bundle_cancelled' })))).toEqual([
      'ok:bundle_cancelled',
    ]);
    expect(
      (await served(webhooks.listEvents({ event_type__in: 'bundle_sent,bundle_complete' }))).pagination
        ?.totalResults,
    ).toBe(2);
    expect(who(await served(webhooks.listEvents({ status: 204 })))).toEqual(['flaky:bundle_sent']);
    expect((await served(webhooks.listEvents({ status__in: '200,204' }))).data).toHaveLength(3);
    expect((await served(webhooks.listEvents({ status__in: '500,503' }))).data).toEqual([]);
    expect((await served(webhooks.listEvents({ success: true }))).data).toHaveLength(3);
    expect((await served(webhooks.listEvents({ success: false }))).data).toEqual([]);

    const day = all.data[0].created.slice(0, 10);
    const shift = (d: string, days: number) =>
      new Date(Date.parse(`${d}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
    expect(
      (await served(webhooks.listEvents({ date_after: shift(day, -1), date_before: shift(day, 1) }))).data,
    ).toHaveLength(3);
    expect((await served(webhooks.listEvents({ date_after: shift(day, 1) }))).data).toEqual([]);
    expect((await served(webhooks.listEvents({ date_before: shift(day, -1) }))).data).toEqual([]);

    const page = await served(webhooks.listEvents({ per_page: 2, page: 2 }));
    expect(page.pagination).toEqual({ pageNumber: 2, totalPages: 2, perPage: 2, totalResults: 3 });
    expect(page.data.map((e: TJson) => e.pk)).toEqual([all.data[2].pk]);

    const { status, body: err } = await failureOf(
      webhooks.listEvents({ event_type: 'nope', date_after: 'yesterday' }),
    );
    expect(status).toBe(400);
    expect(err.errors.map((e: TJson) => e.field).sort()).toEqual(['date_after', 'event_type']);
  });

  it('listDeliveries: lists every attempt, success as recorded, filtered by webhook, webhook_event, event_type, status', async () => {
    const all = await served(webhooks.listDeliveries());
    expect(all.status).toBe(200);
    // bundle_sent to each webhook (the flaky one twice) and bundle_cancelled to the first.
    expect(all.pagination).toEqual({ pageNumber: 1, totalPages: 1, perPage: 50, totalResults: 4 });

    const okEvent = body(sent).event_id;
    const mine = await served(webhooks.listDeliveries({ webhook: ok.id, event_type: 'bundle_sent' }));
    expect(mine.data).toEqual([
      {
        pk: expect.stringMatching(UUID),
        id: expect.stringMatching(UUID),
        timestamp: expect.stringMatching(ISO),
        status: 200,
        message: '',
        webhook: ok.id,
        webhook_event: okEvent,
        event_type: 'bundle_sent',
        created: expect.stringMatching(ISO),
        success: true,
        payload: expect.any(String),
        deliveries: [expect.objectContaining({ status: 200 })],
      },
    ]);
    expect(JSON.parse(mine.data[0].payload)).toEqual({ bundle_id: bundleId, custom_key: 'compat-77' });
    expect(types(await served(webhooks.listDeliveries({ webhook_event: okEvent })))).toEqual([
      'bundle_sent:200',
    ]);

    const retried = await served(webhooks.listDeliveries({ webhook: flaky.id }));
    // Newest first: the successful retry, then the refused first attempt.
    expect(retried.data.map((d: TJson) => [d.status, d.success])).toEqual([
      [204, true],
      [500, false],
    ]);
    expect(retried.data[1].message).toContain('500');
    expect(types(await served(webhooks.listDeliveries({ status: 500 })))).toEqual(['bundle_sent:500']);
    expect((await served(webhooks.listDeliveries({ status__in: '200,204' }))).data).toHaveLength(3);
    expect(types(await served(webhooks.listDeliveries({ event_type__in: 'bundle_cancelled' })))).toEqual([
      'bundle_cancelled:200',
    ]);
    const paged = await served(webhooks.listDeliveries({ per_page: 3, page: 2 }));
    expect(paged.pagination).toEqual({ pageNumber: 2, totalPages: 2, perPage: 3, totalResults: 4 });
    expect(paged.data).toHaveLength(1);
  });

  it('retrieveDelivery: answers the delivery as listed; 404 for an unknown one', async () => {
    const listed = (await served(webhooks.listDeliveries({ webhook: flaky.id }))).data;
    for (const d of listed) {
      const res = await served(webhooks.retrieveDelivery(d.pk));
      expect(res.status).toBe(200);
      expect(res.data).toEqual(d);
    }
    expect((await failureOf(webhooks.retrieveDelivery('9d0c1b2a-0000-4000-8000-000000000000'))).status).toBe(
      404,
    );
  });
});
