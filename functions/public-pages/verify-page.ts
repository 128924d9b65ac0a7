// The public verification page (`/verify`, no API key): anyone holding a final document or a
// Certificate of Evidence can check that this service sealed exactly that file. A plain HTML
// form (it works without JavaScript: the server answers the POST with the result page) and a
// small script that posts the file to `/verify/api/check` and shows the JSON answer in place.
// Only what is in the file itself and yes/no answers are shown (checkFile); never account data.
// Below the verdict, the offline verifier's checks, in the words esign-verify prints them.

import type { TConfig } from '../../shared/config';
import { ValidationError } from '../../shared/domain/errors';
import { checkFile, type TPublicCheck } from '../../shared/domain/evidence/check-file';
import type { TRequest, TResponse } from '../../shared/http/request';
import type { TRoute } from '../../shared/http/router';
import type { TBundleStore } from '../../shared/ports/bundles';
import type { TEvidenceStore, TSealReader } from '../../shared/ports/evidence';
import { signingAssets } from './assets';
import { basePathBefore, esc } from './html';
import { securityHeaders } from './security-headers';
import { filesOf } from './uploads';

export type TVerifyDeps = {
  bundles: TBundleStore;
  evidence: TEvidenceStore;
  seals: TSealReader;
  config: TConfig;
};

/** A Lambda takes at most 6 MB of request; the gateway refuses more before that. */
const MAX_BYTES = 6 * 1024 * 1024;
const UPLOAD = { accept: ['upload', 'multipart'] as ('upload' | 'multipart')[], maxBytes: MAX_BYTES };

/** '' locally, `/<stage>` on API Gateway's own URL. */
const basePath = (req: TRequest) => basePathBefore(req, '/verify');

const KIND_TEXT = { final: 'a final document', certificate: 'a Certificate of Evidence' } as const;

/** The verdict in words: shared by the server's result page and (as the same rules) the script. */
function verdictOf(r: TPublicCheck): { ok: boolean; title: string; lines: [string, string][] } {
  const lines: [string, string][] = [];
  if (r.seal) {
    if (r.seal.signed_by) lines.push(['Sealed by', r.seal.signed_by]);
    if (r.seal.signed_at) lines.push(['Sealed at', r.seal.signed_at]);
    if (r.seal.reason) lines.push(['Reason', r.seal.reason]);
    lines.push([
      'Seal',
      r.sealed
        ? 'intact: the signature holds over the whole file'
        : `not intact${r.seal.problem ? ` (${r.seal.problem})` : r.seal.covers_whole_file ? '' : ' (the file was changed after sealing)'}`,
    ]);
  } else {
    lines.push(['Seal', 'none: the file carries no digital signature']);
  }
  if (r.known) {
    lines.push(['Audit trail', r.audit_trail_intact ? 'intact' : 'does not verify: its record was changed']);
  }
  lines.push(['SHA-256', r.sha256]);
  const ok = r.known && r.sealed && r.audit_trail_intact === true;
  const title = ok
    ? `This is ${KIND_TEXT[r.kind!]} sealed by this service, unchanged since it was sealed.`
    : r.known
      ? `This file was sealed by this service as ${KIND_TEXT[r.kind!]}, but it does not verify.`
      : 'This exact file was not sealed by this service.';
  return { ok, title, lines };
}

/** The offline verifier's checks, one line each as esign-verify prints them (same words, same order). */
function checksHtml(r: TPublicCheck): string {
  if (!r.checks) return '';
  const items = r.checks.checks
    .map(
      (c) =>
        `<li class="check ${esc(c.status)}"><strong>${esc(c.status.toUpperCase())}</strong> ${esc(c.title)}${
          c.next && c.status !== 'pass' ? `<br><span class="next">${esc(c.next)}</span>` : ''
        }</li>`,
    )
    .join('');
  return `<h2>Checks of the file itself</h2><p>The same checks <code>npx esign-verify</code> makes, without a trust list.</p><ul class="checks">${items}</ul>`;
}

function resultHtml(r: TPublicCheck): string {
  const v = verdictOf(r);
  const rows = v.lines.map(([k, val]) => `<dt>${esc(k)}</dt><dd>${esc(val)}</dd>`).join('');
  return `<p class="verdict ${v.ok ? 'ok' : 'bad'}"><strong>${esc(v.title)}</strong></p><dl class="facts">${rows}</dl>${checksHtml(r)}`;
}

function page(base: string, result?: TPublicCheck, error?: string): string {
  const css = `${base}/sign/assets/${signingAssets().version}/app.css`;
  const shown = result ? resultHtml(result) : error ? `<p class="verdict bad">${esc(error)}</p>` : '';
  return `<!doctype html>
<html lang="en" data-api="${esc(`${base}/verify/api`)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Verify a sealed document</title>
<link rel="stylesheet" href="${esc(css)}">
<script type="module" src="${esc(`${base}/verify/assets/verify.js`)}"></script>
</head>
<body>
<header class="topbar"><div class="topbar-inner"><div class="brand"><span class="brand-name">Verify a sealed document</span></div></div></header>
<main id="main" class="main"><section class="card" aria-labelledby="title">
<h1 id="title">Is this document genuine?</h1>
<p>Choose a final document or a Certificate of Evidence (PDF) you received. Its fingerprint (SHA-256) is compared with the files this service sealed, and its digital seal is read. Only what the file itself says is shown; the file is not kept.</p>
<form id="verify-form" method="post" action="${esc(`${base}/verify`)}" enctype="multipart/form-data">
<p><label class="label" for="file">PDF file</label>
<input class="input" id="file" name="file" type="file" accept="application/pdf,.pdf" required></p>
<p><button class="btn primary" type="submit">Check the file</button></p>
</form>
<div id="result" role="status" aria-live="polite">${shown}</div>
</section></main>
</body>
</html>
`;
}

/** The page's script: posts the chosen file to the check and shows the verdict (text only, no HTML). */
const SCRIPT = `const root = document.documentElement;
const api = root.dataset.api;
const form = document.getElementById('verify-form');
const out = document.getElementById('result');
const KIND = { final: 'a final document', certificate: 'a Certificate of Evidence' };
function show(title, ok, lines) {
  out.replaceChildren();
  const p = document.createElement('p');
  p.className = 'verdict ' + (ok ? 'ok' : 'bad');
  const strong = document.createElement('strong');
  strong.textContent = title;
  p.append(strong);
  out.append(p);
  if (!lines.length) return;
  const dl = document.createElement('dl');
  dl.className = 'facts';
  for (const [k, v] of lines) {
    const dt = document.createElement('dt');
    dt.textContent = k;
    const dd = document.createElement('dd');
    dd.textContent = v;
    dl.append(dt, dd);
  }
  out.append(dl);
}
function showChecks(report) {
  if (!report) return;
  const h = document.createElement('h2');
  h.textContent = 'Checks of the file itself';
  const note = document.createElement('p');
  note.textContent = 'The same checks npx esign-verify makes, without a trust list.';
  const ul = document.createElement('ul');
  ul.className = 'checks';
  for (const c of report.checks) {
    const li = document.createElement('li');
    li.className = 'check ' + c.status;
    const label = document.createElement('strong');
    label.textContent = c.status.toUpperCase();
    li.append(label, ' ' + c.title);
    if (c.next && c.status !== 'pass') {
      const next = document.createElement('span');
      next.className = 'next';
      next.textContent = c.next;
      li.append(document.createElement('br'), next);
    }
    ul.append(li);
  }
  out.append(h, note, ul);
}
function verdict(r) {
  const lines = [];
  if (r.seal) {
    if (r.seal.signed_by) lines.push(['Sealed by', r.seal.signed_by]);
    if (r.seal.signed_at) lines.push(['Sealed at', r.seal.signed_at]);
    if (r.seal.reason) lines.push(['Reason', r.seal.reason]);
    lines.push(['Seal', r.sealed ? 'intact: the signature holds over the whole file'
      : 'not intact' + (r.seal.problem ? ' (' + r.seal.problem + ')' : r.seal.covers_whole_file ? '' : ' (the file was changed after sealing)')]);
  } else lines.push(['Seal', 'none: the file carries no digital signature']);
  if (r.known) lines.push(['Audit trail', r.audit_trail_intact ? 'intact' : 'does not verify: its record was changed']);
  lines.push(['SHA-256', r.sha256]);
  const ok = r.known && r.sealed && r.audit_trail_intact === true;
  const title = ok ? 'This is ' + KIND[r.kind] + ' sealed by this service, unchanged since it was sealed.'
    : r.known ? 'This file was sealed by this service as ' + KIND[r.kind] + ', but it does not verify.'
    : 'This exact file was not sealed by this service.';
  show(title, ok, lines);
  showChecks(r.checks);
}
form.addEventListener('submit', async (e) => {
  e.preventDefault();
  const file = form.elements.file.files[0];
  if (!file) return;
  const button = form.querySelector('button');
  button.disabled = true;
  show('Checking…', true, []);
  try {
    const res = await fetch(api + '/check', { method: 'POST', headers: { 'content-type': 'application/pdf' }, body: file });
    const body = await res.json();
    if (!res.ok) show(body.message || 'The file could not be checked.', false, []);
    else verdict(body);
  } catch {
    show('The file could not be checked. Try again.', false, []);
  } finally {
    button.disabled = false;
  }
});
`;

/** The page, the check and the script; `deps` are the signing Lambda's stores plus the seal reader. */
export function verifyRoutes(deps: TVerifyDeps): TRoute[] {
  const headers = (req: TRequest) => securityHeaders(deps.config, { https: req.url.protocol === 'https:' });
  const html = (req: TRequest, status: number, text: string): TResponse => ({
    status,
    text,
    headers: { ...headers(req), 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' },
  });

  async function fileOf(req: TRequest): Promise<Buffer> {
    const { file } = await filesOf(req.body, ['file'], 'document.pdf');
    if (!file || file.bytes.length === 0) {
      throw new ValidationError('Choose a PDF file to check.', [
        { field: 'file', message: 'A file is required.' },
      ]);
    }
    return file.bytes;
  }

  return [
    { method: 'GET', path: '/verify', handler: async (req) => html(req, 200, page(basePath(req))) },
    {
      method: 'POST',
      path: '/verify',
      body: UPLOAD,
      handler: async (req) => {
        try {
          return html(req, 200, page(basePath(req), await checkFile(deps, await fileOf(req))));
        } catch (err) {
          if ((err as Error).name !== 'ValidationError') throw err;
          return html(req, 400, page(basePath(req), undefined, (err as Error).message));
        }
      },
    },
    {
      method: 'POST',
      path: '/verify/api/check',
      body: UPLOAD,
      handler: async (req) => ({
        status: 200,
        body: await checkFile(deps, await fileOf(req)),
        headers: { ...headers(req), 'Cache-Control': 'no-store' },
      }),
    },
    {
      method: 'GET',
      path: '/verify/assets/verify.js',
      handler: async (req) => ({
        status: 200,
        text: SCRIPT,
        headers: {
          ...headers(req),
          'Content-Type': 'text/javascript; charset=utf-8',
          'Cache-Control': 'public, max-age=300',
        },
      }),
    },
  ];
}
