// Metrics as the functions record them on Lambda (Powertools' EMF), collected from a local
// runtime: requests by route, bundles sent and completed, messages handed to the mail and SMS
// stand-ins, webhook calls, and the document job that seals a bundle.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LOCAL_STAGE } from '#infra/local/layout';
import type { TRuntime } from '#infra/local/runtime';
import type { TEmf } from '#shared/adapters/telemetry/metrics';
import { aBundle, anEmbeddedBundle, aPdfB64 } from '../helpers/bundles';
import { metricsOfEmf } from '../helpers/metrics';
import { eventually, startReceiver, type TReceiver } from '../helpers/receiver';
import { apiClient, startTestRuntime } from '../helpers/runtime';
import { openSession, PNG_DATA_URL, signerClient } from '../helpers/signer';

let runtime: TRuntime;
let receiver: TReceiver;
const emfs: TEmf[] = [];
const recorded = () => metricsOfEmf(emfs);
const WAIT = { timeout: 20_000, interval: 100 };

beforeAll(async () => {
  runtime = await startTestRuntime({ metrics: (emf) => emfs.push(emf) });
  receiver = await startReceiver();
});
afterAll(async () => {
  await runtime.stop();
  await receiver.stop();
});

describe('metrics', () => {
  it('count each request by its route pattern, in the OpenEsign namespace, with service and stage', async () => {
    const call = apiClient(runtime);
    const created = await call('POST', '/persons/', {
      json: { name: 'Measured', channels: [{ email: 'measured@example.com' }] },
    });
    expect(created.status).toBe(201);
    expect((await call('GET', `/persons/${created.body.id}/`)).status).toBe(200);
    // Not a person id: the path names nothing, and no route pattern claims it.
    expect((await call('GET', '/persons/not-an-id/')).status).toBe(404);

    const requests = recorded().filter((m) => m.name === 'ApiRequests' && m.dimensions.service === 'persons');
    expect(requests).toEqual([
      {
        namespace: 'OpenEsign',
        name: 'ApiRequests',
        unit: 'Count',
        value: 1,
        dimensions: { service: 'persons', stage: LOCAL_STAGE, route: 'POST /persons' },
      },
      {
        namespace: 'OpenEsign',
        name: 'ApiRequests',
        unit: 'Count',
        value: 1,
        dimensions: { service: 'persons', stage: LOCAL_STAGE, route: 'GET /persons/{id:uuid}' },
      },
      {
        namespace: 'OpenEsign',
        name: 'ApiRequests',
        unit: 'Count',
        value: 1,
        dimensions: { service: 'persons', stage: LOCAL_STAGE, route: 'unmatched' },
      },
    ]);
    expect(
      recorded().filter((m) => m.name === 'ApiLatency' && m.dimensions.service === 'persons'),
    ).toHaveLength(3);
    // A 404 is the caller's mistake, no error of the service's.
    expect(recorded().filter((m) => m.name === 'ApiErrors')).toEqual([]);
    // Dimension values are route patterns: no id (nor any link token) ever becomes one.
    expect(JSON.stringify(emfs)).not.toContain(created.body.id);
  });

  it('count a bundle sent, each message the notifications worker hands over, and each webhook call', async () => {
    const call = apiClient(runtime);
    const hook = await call('POST', '/webhooks/', {
      json: { url: receiver.url('/sent'), event_types: ['bundle_sent'] },
    });
    expect(hook.status).toBe(201);
    const sentBefore = recorded().filter((m) => m.name === 'BundlesSent').length;
    const created = await call('POST', '/bundles/', { json: aBundle({}, await aPdfB64()) });
    expect(created.status, created.text).toBe(201);

    expect(recorded()).toContainEqual(
      expect.objectContaining({
        name: 'ApiRequests',
        dimensions: { service: 'bundles', stage: LOCAL_STAGE, route: 'POST /bundles' },
      }),
    );
    await vi.waitFor(() => {
      expect(recorded().filter((m) => m.name === 'BundlesSent')).toHaveLength(sentBefore + 1);
    }, WAIT);
    // Two signers, one by email and one by text: two signing requests sent.
    await vi.waitFor(() => {
      const sent = recorded().filter((m) => m.name === 'NotificationsSent');
      expect(sent.reduce((n, m) => n + (m.value as number), 0)).toBe(2);
      for (const m of sent)
        expect(m.dimensions).toEqual({ service: 'notifications-worker', stage: LOCAL_STAGE });
    }, WAIT);
    expect(recorded().filter((m) => m.name === 'NotificationFailures')).toEqual([]);
    await vi.waitFor(() => {
      expect(receiver.callsTo('/sent')).toHaveLength(1);
      expect(recorded().filter((m) => m.name === 'WebhookDeliveries')).toEqual([
        expect.objectContaining({
          value: 1,
          dimensions: { service: 'webhook-dispatcher', stage: LOCAL_STAGE, outcome: 'delivered' },
        }),
      ]);
      expect(recorded().filter((m) => m.name === 'WebhookLatency')).toEqual([
        expect.objectContaining({ unit: 'Milliseconds', value: expect.any(Number) }),
      ]);
    }, WAIT);
  });

  it('count a bundle completed, and the document job that sealed it with its seal time', async () => {
    const call = apiClient(runtime);
    const sign = signerClient(runtime);
    const pdf = await aPdfB64();
    const created = await call('POST', '/bundles/', {
      json: anEmbeddedBundle(pdf),
    });
    expect(created.status, created.text).toBe(201);
    const session = await openSession(sign, call, created.body.packets[0].id);
    const filled = await sign('PUT', '/values', session, {
      values: [{ doc_key: 'lease', field_key: 'sig', image: PNG_DATA_URL }],
    });
    expect(filled.status, JSON.stringify(filled.body)).toBe(200);
    expect((await sign('POST', '/complete', session, { consent: true })).status).toBe(200);
    await eventually(
      async () => (await call('GET', `/bundles/${created.body.id}/`)).body.docs_ready,
      60_000,
      'documents ready',
    );

    await vi.waitFor(() => {
      expect(recorded().filter((m) => m.name === 'BundlesCompleted')).toHaveLength(1);
      expect(recorded().filter((m) => m.name === 'DocumentJobAttempts')).toEqual([
        expect.objectContaining({
          value: 1,
          dimensions: { service: 'document-worker', stage: LOCAL_STAGE, outcome: 'done' },
        }),
      ]);
      const seal = recorded().filter((m) => m.name === 'SealTime');
      expect(seal).toEqual([
        expect.objectContaining({
          unit: 'Milliseconds',
          dimensions: { service: 'document-worker', stage: LOCAL_STAGE },
        }),
      ]);
      expect(seal[0]!.value).toBeGreaterThan(0);
    }, WAIT);
  });
});
