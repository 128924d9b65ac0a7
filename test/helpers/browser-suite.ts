// The set-up every browser test file of the public pages shares: a local runtime with an API
// client and its outbox, the one PDF the file's bundles carry, and headless Chromium where there
// is one, started before the file's tests and stopped after them; and the bundles and portal links
// those files send. What differs from file to file (the PDF's pages, Chromium's flags, what a
// bundle holds) is passed in.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import { fileBrowser, releaseBrowser, runBrowser } from './browser';
import { aPdfB64 } from './bundles';
import { aPdf, type TPageSpec } from './pdfs';
import { apiClient, startTestRuntime, type TApiAnswer } from './runtime';
import { signerInbox } from './signing-pages';

/** What a bundle of one document, the file's PDF, holds; other create-bundle fields pass through. */
export interface TOneDocumentBundle {
  label: string;
  packets: ({ key: string } & Record<string, unknown>)[];
  /** The document's key. */
  document: string;
  fields: Record<string, unknown>[];
  [createBundleField: string]: unknown;
}

export interface TSentBundle {
  id: string;
  packets: { id: string; status: string }[];
}

/** A portal link's envelope template: one document, the file's PDF, for one visitor to sign at once. */
export interface TPortalWaiver {
  /** The envelope template's name. */
  name: string;
  /** The visitor's signature field: where it sits, and what else it says. */
  field: Record<string, unknown>;
  /** The visitor's signer entry, beyond its key. */
  visitor?: Record<string, unknown>;
  [envelopeTemplateField: string]: unknown;
}

export interface TBrowserSuite {
  runtime: TRuntime;
  call: ReturnType<typeof apiClient>;
  /** The runtime's outbox, as signers read it. */
  inbox: ReturnType<typeof signerInbox>;
  /** Not started where there is no Chromium: the file's browser tests are skipped there. */
  browser: Browser;
  /** The file's PDF, as base64. */
  pdfB64: string;
  /** Sends the bundle and expects it created (201); answers the created bundle. */
  sentBundle(bundle: TOneDocumentBundle): Promise<TSentBundle>;
  /** A packet's embedded signing URL, expecting it made (201). */
  embedUrl(packetId: string): Promise<string>;
  /** Makes the document template and the portal envelope template, expecting each made (201). */
  portalWaiver(waiver: TPortalWaiver): Promise<{ id: string; smart_link_url: string }>;
}

/**
 * Registers the file's beforeAll and afterAll and answers the suite, whose fields are filled when
 * the file's tests start. `pdf` is the pages of the file's PDF (the three-page one of bundles.ts
 * unless given); `browserArgs` add to Chromium's usual flags. A file with more to start (a partner
 * site, a webhook receiver) registers its own hooks after this call: they run after these start
 * and before they stop.
 */
export function browserSuite(opts: { pdf?: TPageSpec[]; browserArgs?: string[] } = {}): TBrowserSuite {
  const created = (res: TApiAnswer) => {
    expect(res.status, res.text).toBe(201);
    return res.body;
  };
  // The runtime, its client and outbox, the PDF and the browser are filled in by beforeAll.
  const suite = {
    sentBundle: async ({ document, fields, ...bundle }) =>
      created(
        await suite.call('POST', '/bundles/', {
          json: { ...bundle, documents: [{ key: document, file_b64: suite.pdfB64, fields }] },
        }),
      ),
    embedUrl: async (packetId) =>
      created(await suite.call('POST', `/packets/${packetId}/embed_url/`)).url as string,
    portalWaiver: async ({ field, visitor = {}, ...envelope }) => {
      const template = created(
        await suite.call('POST', '/templates/', {
          json: {
            name: 'Waiver',
            file_b64: suite.pdfB64,
            roles: [{ key: 'visitor', label: 'Visitor' }],
            fields: [{ key: 'sig', kind: 'sig', ...field, editor_roles: ['visitor'] }],
          },
        }),
      );
      return created(
        await suite.call('POST', '/envelope-templates/', {
          json: {
            ...envelope,
            is_portal: true,
            allow_direct_signing: true,
            documents: [{ key: 'waiver', template_id: template.id }],
            signers: [{ key: 'visitor', ...visitor }],
          },
        }),
      );
    },
  } as TBrowserSuite;
  beforeAll(async () => {
    suite.runtime = await startTestRuntime();
    suite.call = apiClient(suite.runtime);
    suite.inbox = signerInbox(suite.runtime);
    suite.pdfB64 = opts.pdf
      ? Buffer.from(await aPdf({ pages: opts.pdf })).toString('base64')
      : await aPdfB64();
    if (runBrowser) suite.browser = await fileBrowser(opts.browserArgs);
  });
  afterAll(async () => {
    await releaseBrowser(suite.browser);
    await suite.runtime?.stop();
  });
  return suite;
}
