// The signing figures' yardsticks, measured in the same run on the same machine, so that a
// figure divided by its yardstick says what our own code costs whatever the machine:
//
// - first page: pdf.js alone, the same pdfjs-dist files the signing page is served (read from the
//   same asset store), in a bare page that fetches the same PDF and draws its first page at the
//   width the signing page drew it, in the same Chromium, a fresh context each time. Served by a
//   plain Node server on loopback in a process of its own, as the signing page is served by the
//   runtime in its own (bench/signing-servers.ts), so what the bare page costs is the renderer's
//   own work. The yardstick is served under the signing page's own security headers
//   (securityHeaders: the same function, a CSP naming the bare page's inline script), so the ratio
//   counts what the goal counts, the page's code, words and fonts, and not the browser's answer to
//   that policy: Cross-Origin-Opener-Policy makes Chromium start a new renderer process for the
//   page, which pdf.js alone would pay as much under the same policy. The bare page is also served
//   without the headers, and measured in the same rounds, so that cost is still reported.
// - complete: one DynamoDB write of as many items as the finish has fields, each item a field
//   value, on the same local DynamoDB stand-in (in the runtime's process), through an SDK client
//   made as the service makes its own (createDocumentClient), over loopback HTTP to the stand-in's
//   endpoint as the service's requests go, timed from the bench's side as the call is: both
//   sides cross loopback from the bench's process into the runtime's. The items go in one
//   TransactWriteItems (up to 100 items): one request, as the finish's own write is. On the local
//   stand-in that is a little quicker than the two BatchWriteItem calls of up to 25 sent at once
//   it replaces (3.7 against 4.0 ms for 40 items, in one process), so the yardstick is no laxer.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { type DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { contentTypeOf, signingAssets } from '#functions/public-pages/assets';
import { cspHashOf } from '#functions/public-pages/inline-element';
import { securityHeaders } from '#functions/public-pages/security-headers';
import { localTableConfig } from '#infra/local/layout';
import { createDocumentClient } from '#shared/adapters/aws/clients';

/** The bare page's one script, inline: its CSP names it by hash (BARE_POLICY_HEADERS). */
const BARE_SCRIPT = `
import * as pdfjs from './pdf.min.mjs';
pdfjs.GlobalWorkerOptions.workerSrc = new URL('./pdf.worker.min.mjs', import.meta.url).href;
const width = Number(new URLSearchParams(location.search).get('width')) || 800;
const bytes = new Uint8Array(await (await fetch('./doc.pdf')).arrayBuffer());
// As the signing page marks its first document's bytes (public/early-session.js).
performance.mark('esign:first-document-bytes');
// The options the signing page opens documents with (public/viewer.js).
const pdf = await pdfjs.getDocument({
  data: bytes,
  isEvalSupported: false,
  enableXfa: false,
  standardFontDataUrl: new URL('./standard_fonts/', import.meta.url).href,
  cMapUrl: new URL('./cmaps/', import.meta.url).href,
  cMapPacked: true,
}).promise;
const page = await pdf.getPage(1);
const viewport = page.getViewport({ scale: width / page.getViewport({ scale: 1 }).width });
const canvas = document.getElementById('page');
canvas.width = Math.floor(viewport.width);
canvas.height = Math.floor(viewport.height);
await page.render({ canvas, canvasContext: canvas.getContext('2d'), viewport }).promise;
window.__benchFirstRendered = performance.now();
canvas.className = 'rendered';
// Shown and the bench's call two animation frames later, as on the signing page's probe
// (bench/signing.ts, whenDone).
requestAnimationFrame(() => requestAnimationFrame(() => {
  window.__benchShown = performance.now();
  window.__benchDone?.();
}));
`;

/** The bare page: pdf.js draws page 1 of ./doc.pdf at ?width= pixels, then notes the time. */
export const BARE_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>pdf.js alone</title>
<script type="module">${BARE_SCRIPT}</script>
</head>
<body><canvas id="page"></canvas></body>
</html>
`;

/**
 * The headers the signing page and its assets are answered with (securityHeaders), its CSP naming
 * the bare page's script: no documents bucket to fetch from (the bare page fetches its own PDF).
 */
const BARE_POLICY_HEADERS = securityHeaders(
  { endpoints: {}, bucketName: '', region: 'us-east-1' },
  { scriptHashes: [cspHashOf(BARE_SCRIPT)] },
);

/** Under this folder the bare page and its files are answered with BARE_POLICY_HEADERS. */
const POLICY_DIR = 'policy/';

export interface TBarePdfServer {
  /** The bare page's URL, answered with the signing page's security headers; add `?width=<px>`. */
  url: string;
  /** The same page without those headers, as a plain static server answers it. */
  plainUrl: string;
  stop(): Promise<void>;
}

/**
 * Serves the bare page, `doc.pdf` and the signing page's own asset files (pdf.js among them), at
 * the root as a plain static server would, and under policy/ with the signing page's headers.
 */
export async function startBarePdfServer(pdf: Uint8Array): Promise<TBarePdfServer> {
  const assets = signingAssets();
  const server = http.createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname.slice(1));
    const policy = path.startsWith(POLICY_DIR);
    const name = policy ? path.slice(POLICY_DIR.length) : path;
    const body =
      name === 'bare.html'
        ? Buffer.from(BARE_PAGE)
        : name === 'doc.pdf'
          ? Buffer.from(pdf)
          : assets.read(name);
    if (!body) {
      res.writeHead(404).end();
      return;
    }
    const type = name === 'bare.html' ? 'text/html; charset=utf-8' : contentTypeOf(name);
    res.writeHead(200, {
      ...(policy ? BARE_POLICY_HEADERS : {}),
      'content-type': type,
      'content-length': body.length,
      'cache-control': 'no-store',
    });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/${POLICY_DIR}bare.html`,
    plainUrl: `http://127.0.0.1:${port}/bare.html`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** DynamoDB's limit of items in one TransactWriteItems. */
const TRANSACTION_MAX = 100;

/** A DynamoDB client on the runtime's stand-in at `endpoint`, made as the service makes its own. */
export function standInClient(endpoint: string, tableName: string): DynamoDBDocumentClient {
  return createDocumentClient(localTableConfig(endpoint, tableName));
}

/** Writes `count` field-value items in one request (TransactWriteItems) to `table`; answers the latency. */
export async function timeOneWrite(
  db: DynamoDBDocumentClient,
  table: string,
  count: number,
): Promise<number> {
  if (count > TRANSACTION_MAX)
    throw new Error(`one write takes at most ${TRANSACTION_MAX} items, not ${count}`);
  const run = randomUUID();
  const at = new Date().toISOString();
  const TransactItems = Array.from({ length: count }, (_, i) => ({
    Put: {
      TableName: table,
      Item: {
        pk: `BENCH#WRITE#${run}`,
        sk: `VALUE#doc#field_${i + 1}`,
        value: `Value of field_${i + 1}`,
        filledAt: at,
        ip: '127.0.0.1',
        userAgent: 'bench',
      },
    },
  }));
  const t0 = performance.now();
  await db.send(new TransactWriteCommand({ TransactItems }));
  const t1 = performance.now();
  return t1 - t0;
}
