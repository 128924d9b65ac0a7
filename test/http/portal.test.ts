import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import { createAccountStore } from '#shared/adapters/dynamodb/account-store';
import { createBundleStore } from '#shared/adapters/dynamodb/bundle-store';
import { createDocTemplateStore } from '#shared/adapters/dynamodb/doc-template-store';
import { createEnvelopeTemplateStore } from '#shared/adapters/dynamodb/envelope-template-store';
import { createPersonStore } from '#shared/adapters/dynamodb/person-store';
import { createPortalCounterStore } from '#shared/adapters/dynamodb/portal-counter-store';
import { createSigningTokenStore } from '#shared/adapters/dynamodb/signing-token-store';
import { createUrlFetcher } from '#shared/adapters/fetch/url-fetcher';
import { createPdfTools } from '#shared/adapters/pdf/pdf-tools';
import { randomIds, systemClock } from '#shared/adapters/system';
import { documentBlobs } from '#shared/composition/function-base';
import { PORTAL_LIMITS, startPortalSigning } from '#shared/domain/envelope-templates/start-portal-signing';
import { aPdfB64 } from '../helpers/bundles';
import { apiClient, startTestRuntime } from '../helpers/runtime';

// Portal smart links over real HTTP: the public page, its form post, and the abuse limits.

let runtime: TRuntime;
let call: ReturnType<typeof apiClient>;
let docTemplate: string;
let portal: { id: string; smart_link_url: string };

beforeAll(async () => {
  runtime = await startTestRuntime();
  call = apiClient(runtime);
  const doc = await call('POST', '/templates/', {
    json: {
      name: 'Waiver',
      file_b64: await aPdfB64(),
      roles: [{ key: 'visitor', label: 'Visitor' }],
      fields: [{ key: 'sig', kind: 'sig', page: 1, x: 10, y: 70, w: 30, h: 5, editor_roles: ['visitor'] }],
    },
  });
  expect(doc.status, doc.text).toBe(201);
  docTemplate = doc.body.id;
  portal = (await call('POST', '/envelope-templates/', { json: envelope() })).body;
});
afterAll(() => runtime.stop());

const envelope = (overrides: Record<string, unknown> = {}) => ({
  name: 'Climbing gym waiver',
  description: 'Sign before your first visit.',
  is_portal: true,
  allow_direct_signing: true,
  documents: [{ key: 'waiver', template_id: docTemplate }],
  signers: [{ key: 'visitor', label: 'Visitor' }],
  label: 'Waiver',
  ...overrides,
});

const post = (url: string, form: Record<string, string>) =>
  fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });

describe('the smart link page', () => {
  it('is a plain form with strict security headers and no script', async () => {
    expect(portal.smart_link_url).toBe(`${runtime.baseUrl}/portal/${portal.id}`);
    const res = await fetch(portal.smart_link_url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("form-action 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    const html = await res.text();
    expect(html).not.toContain('<script');
    expect(html).toContain('Climbing gym waiver');
    expect(html).toContain(`action="/portal/${portal.id}"`);
    expect(html).toMatch(/name="name"/);
    expect(html).toMatch(/name="email"/);
  });

  it('is 404 for a template that is not a portal with direct signing, disabled, unknown or malformed', async () => {
    const plain = (
      await call('POST', '/envelope-templates/', {
        json: envelope({ is_portal: false, allow_direct_signing: false }),
      })
    ).body.id;
    const noDirect = (
      await call('POST', '/envelope-templates/', { json: envelope({ allow_direct_signing: false }) })
    ).body.id;
    const off = (await call('POST', '/envelope-templates/', { json: envelope({ enabled: false }) })).body.id;
    for (const id of [plain, noDirect, off, 'T-00000000', 'nope']) {
      expect((await fetch(`${runtime.baseUrl}/portal/${id}`)).status, id).toBe(404);
      expect(
        (await post(`${runtime.baseUrl}/portal/${id}`, { name: 'A', email: 'a@example.com' })).status,
        id,
      ).toBe(404);
    }
  });
});

describe('the form post', () => {
  it('makes a bundle from the template for the person and redirects into signing', async () => {
    const res = await post(portal.smart_link_url, { name: 'Pat Climber', email: 'pat@example.com' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toMatch(new RegExp(`^${runtime.baseUrl}/sign/[0-9A-Za-z]{43}$`));
    const list = await call('GET', '/bundles/?search=Pat');
    const bundle = list.body.find(
      (b: { packets: { email: string }[] }) => b.packets[0]?.email === 'pat@example.com',
    );
    expect(bundle).toMatchObject({
      label: 'Waiver',
      status: 'se',
      documents: [{ key: 'waiver', template_id: docTemplate }],
      packets: [{ name: 'Pat Climber', email: 'pat@example.com', deliver_via: 'embed' }],
    });
  });

  it('shows the form again with what is wrong', async () => {
    const res = await post(portal.smart_link_url, { name: ' ', email: 'not-an-email' });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain('Enter your name.');
    expect(html).toContain('Enter a valid email address.');
    expect(html).toContain('value="not-an-email"');
  });

  it('says the form cannot be used when its template no longer makes a valid bundle', async () => {
    const doc = await call('POST', '/templates/', {
      json: { name: 'Gone soon', file_b64: await aPdfB64(), roles: [{ key: 'visitor', label: 'Visitor' }] },
    });
    const t = (
      await call('POST', '/envelope-templates/', {
        json: envelope({ name: 'Orphan', documents: [{ key: 'gone', template_id: doc.body.id }] }),
      })
    ).body;
    expect((await call('DELETE', `/templates/${doc.body.id}/`)).status).toBe(204);
    const res = await post(t.smart_link_url, { name: 'Pat', email: 'orphan@example.com' });
    expect(res.status).toBe(409);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(await res.text()).toContain('This form cannot start a signing right now.');
  });

  it('escapes what the person typed', async () => {
    const res = await post(portal.smart_link_url, { name: '<b>x</b>', email: '"><script>' });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).not.toContain('<script>');
    expect(html).toContain('&quot;&gt;&lt;script&gt;');
  });
});

describe('abuse limits', () => {
  it('allows 10 bundles an hour from one address, then answers 429 with Retry-After', async () => {
    const fresh = (await call('POST', '/envelope-templates/', { json: envelope({ name: 'Limits' }) })).body;
    // The earlier tests of this file used two of this address's 10 already.
    let ok = 2;
    for (; ok < 10; ok++) {
      const res = await post(fresh.smart_link_url, { name: `Person ${ok}`, email: `p${ok}@example.com` });
      expect(res.status, `post ${ok}`).toBe(303);
    }
    const over = await post(fresh.smart_link_url, { name: 'One too many', email: 'over@example.com' });
    expect(over.status).toBe(429);
    const retry = Number(over.headers.get('retry-after'));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(3600);
    expect(await over.text()).toContain('Too many documents were started from your network');
  });

  it('caps the bundles one template makes a day, whatever the address', async () => {
    const fresh = (await call('POST', '/envelope-templates/', { json: envelope({ name: 'Daily cap' }) }))
      .body;
    const { db, config } = runtime;
    const deps = {
      bundles: createBundleStore(db, config.tableName),
      accounts: createAccountStore(db, config.tableName),
      persons: createPersonStore(db, config.tableName),
      templates: createDocTemplateStore(db, config.tableName),
      envelopeTemplates: createEnvelopeTemplateStore(db, config.tableName),
      tokens: createSigningTokenStore(db, config.tableName),
      counters: createPortalCounterStore(db, config.tableName),
      blobs: documentBlobs(config, db),
      pdf: createPdfTools({ maxPages: 500 }),
      fetcher: createUrlFetcher({ allowHttp: false, allowLoopback: false }),
      clock: systemClock,
      ids: randomIds,
    };
    const limits = { perIpPerHour: 100, perTemplatePerDay: 3 };
    const start = (i: number) =>
      startPortalSigning(
        deps,
        fresh.id,
        { name: `P ${i}`, email: `cap${i}@example.com` },
        `10.0.0.${i}`,
        runtime.baseUrl,
        limits,
      );
    // Concurrent requests cannot pass the cap: the count is a conditional update.
    const results = await Promise.allSettled([1, 2, 3, 4, 5].map(start));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(refused.map((r) => (r.reason as Error).name)).toEqual(['ThrottledError', 'ThrottledError']);
  });
});

describe('page loads', () => {
  it('answers 429 with Retry-After once one address loaded smart link pages its limit a minute', async () => {
    const limits = { ...PORTAL_LIMITS, viewsPerIpPerMinute: 5 };
    const own = await startTestRuntime({ portalLimits: limits });
    try {
      const ownCall = apiClient(own);
      const doc = await ownCall('POST', '/templates/', {
        json: {
          name: 'Waiver',
          file_b64: await aPdfB64(),
          roles: [{ key: 'visitor', label: 'Visitor' }],
          fields: [],
        },
      });
      const documents = [{ key: 'waiver', template_id: doc.body.id }];
      const link = (await ownCall('POST', '/envelope-templates/', { json: envelope({ documents }) })).body
        .smart_link_url;
      // The count is per clock minute: start early in one, so the few loads below share it.
      const second = new Date().getUTCSeconds();
      if (second > 50) await new Promise((r) => setTimeout(r, (61 - second) * 1000));
      const statuses: number[] = [];
      for (let i = 0; i < limits.viewsPerIpPerMinute; i++) {
        // Unknown ids count too, so trying ids costs the same.
        const res = await fetch(i % 2 ? link : `${own.baseUrl}/portal/T-00000000`);
        statuses.push(res.status);
        await res.arrayBuffer();
      }
      expect(statuses).toEqual([404, 200, 404, 200, 404]);
      const over = await fetch(link);
      expect(over.status).toBe(429);
      const retry = Number(over.headers.get('retry-after'));
      expect(retry).toBeGreaterThan(0);
      expect(retry).toBeLessThanOrEqual(60);
      expect(await over.text()).toContain('Too many pages were opened from your network');
    } finally {
      await own.stop();
    }
  });
});
