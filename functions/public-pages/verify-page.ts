// The public verification page (`/verify`, no API key): anyone holding a final document or a
// Certificate of Evidence can check that this service sealed exactly that file. A plain HTML
// form (it works without JavaScript: the server answers the POST with the result page) and a
// small script that posts the file to `/verify/api/check` and shows the JSON answer in place.
// Only what is in the file itself and yes/no answers are shown (checkFile); never account data.
// Below the verdict, the offline verifier's checks, the sentences esign-verify prints in English
// said in the visitor's language (visitor-language.ts), as the rest of the page is.
// Its routes are in verify-routes.ts, which imports this file with the first request to /verify.

import type { TConfig } from '#shared/config';
import { type ServiceError, said, ValidationError } from '#shared/domain/errors';
import { checkFile, type TPublicCheck } from '#shared/domain/evidence/check-file';
import type { TBundleStore } from '#shared/domain/ports/bundles';
import type { TEvidenceStore, TSealReader } from '#shared/domain/ports/evidence';
import { toHttpError } from '#shared/http/error-mapping';
import type { TRequest, TResponse } from '#shared/http/request';
import { catalogOf, type TCatalog, translator } from '#shared/i18n/catalogs';
import type { TLanguage } from '#shared/i18n/languages';
import { partsOf, type TWords, textIn, timeIn } from '#shared/verify/check-words';
import type { TCheck } from '#shared/verify/report';
import { signingAssets } from './assets';
import { basePathBefore, esc } from './html';
import { securityHeaders } from './security-headers';
import { filesOf } from './uploads';
import { type TVerdictWords, VERDICT_ICONS, verdictOfError, verdictWords } from './verify-verdict';
import { htmlLangAttrs, languageMenuHtml, visitorLanguage } from './visitor-language';
import { webFontLink } from './web-fonts';

export type TVerifyDeps = {
  bundles: TBundleStore;
  evidence: TEvidenceStore;
  seals: TSealReader;
  config: TConfig;
};

/** '' locally, `/<stage>` on API Gateway's own URL. */
const basePath = (req: TRequest) => basePathBefore(req, '/verify');

/** The facts the file states, in `lang`: the details beneath the verdict (the script says the same). */
function factsOf(r: TPublicCheck, lang: TLanguage): [string, string][] {
  const t = translator(lang);
  const lines: [string, string][] = [];
  if (r.seal) {
    if (r.seal.signed_by) lines.push([t('verify.sealedBy'), r.seal.signed_by]);
    if (r.seal.signed_at) lines.push([t('verify.sealedAt'), timeIn(lang, r.seal.signed_at)]);
    if (r.seal.reason) lines.push([t('verify.reason'), r.seal.reason]);
    lines.push([
      t('verify.seal'),
      r.sealed
        ? t('verify.sealIntact')
        : r.seal.problem
          ? t('verify.sealBrokenProblem', { problem: r.seal.problem })
          : r.seal.covers_whole_file
            ? t('verify.sealBroken')
            : t('verify.sealChanged'),
    ]);
  } else {
    lines.push([t('verify.seal'), t('verify.sealNone')]);
  }
  if (r.known) {
    lines.push([
      t('verify.auditTrail'),
      t(r.audit_trail_intact ? 'verify.auditIntact' : 'verify.auditBroken'),
    ]);
  }
  lines.push(['SHA-256', r.sha256]);
  return lines;
}

/** Where the command's name goes in the note about the checks, marked up as code. */
const COMMAND = '\u0000';

/** A check's words in `lang` as HTML: the data in them (names, hashes) isolated from the page's direction. */
const wordsHtml = (said: TWords, lang: TLanguage) =>
  partsOf(said, lang)
    .map((p) => ('text' in p ? esc(p.text) : `<bdi>${esc(p.data)}</bdi>`))
    .join('');

/** The report's verdict line in `lang`: every check holds, or how many failed. */
function resultLine(report: NonNullable<TPublicCheck['checks']>, lang: TLanguage): string {
  const t = translator(lang);
  const failed = report.checks.filter((c) => c.status === 'fail').length;
  return report.result === 'pass'
    ? t('verify.checks.resultPass')
    : t('verify.checks.resultFail', { count: failed, label: t('verify.status.fail') });
}

/**
 * The offline verifier's checks, one line each as esign-verify prints them (same order), and its
 * result last, all in the page's language.
 */
function checksHtml(r: TPublicCheck, lang: TLanguage): string {
  if (!r.checks) return '';
  const t = translator(lang);
  const items = r.checks.checks
    .map(
      (c) =>
        `<li class="check ${esc(c.status)}"><strong>${esc(t(`verify.status.${c.status}`))}</strong> ${wordsHtml(c.said.title, lang)}${
          c.said.next && c.status !== 'pass'
            ? `<br><span class="next">${wordsHtml(c.said.next, lang)}</span>`
            : ''
        }</li>`,
    )
    .join('');
  const note = esc(t('verify.checksNote', { command: COMMAND })).replace(
    COMMAND,
    '<code>npx esign-verify</code>',
  );
  return `<h3>${esc(t('verify.checksTitle'))}</h3><p>${note}</p><ul class="checks">${items}</ul><p class="check-result ${r.checks.result}">${esc(resultLine(r.checks, lang))}</p>`;
}

/** A check as the page's script shows it: its sentences also in the reader's language (`localized`). */
type TLocalizedCheck = TCheck & { localized: { title: string; next?: string } };

/**
 * The public check's JSON answer with each check's sentences, and the report's result line, in
 * `lang` too (data isolated with Unicode isolates, the text's <bdi>); the English fields stay.
 */
function localized(r: TPublicCheck, lang: TLanguage) {
  const verdict = verdictWords(r, lang);
  if (!r.checks) return { ...r, verdict };
  const checks: TLocalizedCheck[] = r.checks.checks.map((c) => ({
    ...c,
    localized: c.said.next
      ? { title: textIn(c.said.title, lang), next: textIn(c.said.next, lang) }
      : { title: textIn(c.said.title, lang) },
  }));
  return { ...r, verdict, checks: { ...r.checks, checks, localized_result: resultLine(r.checks, lang) } };
}

/** The verdict first, in words, colour and a symbol; its explanation and what to do next under it. */
function verdictHtml(v: TVerdictWords): string {
  return `<section class="verdict-box ${v.kind}" aria-labelledby="verdict-title"><span class="verdict-icon" aria-hidden="true">${VERDICT_ICONS[v.kind]}</span><div class="verdict-words"><h2 id="verdict-title">${esc(v.title)}</h2><p>${esc(v.text)}</p>${
    v.next ? `<p class="verdict-next">${esc(v.next)}</p>` : ''
  }</div></section>`;
}

function resultHtml(r: TPublicCheck, lang: TLanguage): string {
  const rows = factsOf(r, lang)
    .map(([k, val]) => `<dt>${esc(k)}</dt><dd>${esc(val)}</dd>`)
    .join('');
  return `${verdictHtml(verdictWords(r, lang))}<details class="verify-details"><summary>${esc(translator(lang)('verify.verdict.details'))}</summary><dl class="facts">${rows}</dl>${checksHtml(r, lang)}</details>`;
}

/** The messages the script shows, in the page's language (it has no catalog of its own). */
function scriptMessages(lang: TLanguage): Record<string, string> {
  // As written in the catalog: the script fills the placeholders ({{problem}}, {{command}}) itself.
  const raw = (key: string) =>
    key.split('.').reduce<TCatalog | string>((node, k) => (node as TCatalog)[k]!, catalogOf(lang).verify!);
  const keys = [
    'verdict.cannotTell',
    'verdict.details',
    'sealedBy',
    'sealedAt',
    'reason',
    'seal',
    'sealIntact',
    'sealBroken',
    'sealBrokenProblem',
    'sealChanged',
    'sealNone',
    'auditTrail',
    'auditIntact',
    'auditBroken',
    'checksTitle',
    'checksNote',
    'checking',
    'failed',
    'status.pass',
    'status.fail',
    'status.warn',
    'status.info',
  ];
  return Object.fromEntries(keys.map((k) => [k, String(raw(k))]));
}

function page(base: string, lang: TLanguage, result?: TPublicCheck, error?: string): string {
  const css = `${base}/sign/assets/${signingAssets().version}/app.css`;
  const t = translator(lang);
  const shown = result ? resultHtml(result, lang) : error ? verdictHtml(verdictOfError(error, lang)) : '';
  return `<!doctype html>
<html ${htmlLangAttrs(lang)} data-api="${esc(`${base}/verify/api`)}" data-messages="${esc(JSON.stringify(scriptMessages(lang)))}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${esc(t('verify.title'))}</title>
<link rel="stylesheet" href="${esc(css)}">
${webFontLink(base, lang)}
<script type="module" src="${esc(`${base}/verify/assets/verify.js`)}"></script>
</head>
<body>
<a class="skip-link" href="#main">${esc(t('page.skip'))}</a>
<header class="topbar"><div class="topbar-inner"><div class="brand"><span class="brand-name">${esc(t('verify.title'))}</span></div>${languageMenuHtml(lang)}</div></header>
<main id="main" class="main" tabindex="-1"><section class="card" aria-labelledby="title">
<h1 id="title">${esc(t('verify.heading'))}</h1>
<p>${esc(t('verify.intro'))}</p>
<form id="verify-form" method="post" action="${esc(`${base}/verify?lang=${lang}`)}" enctype="multipart/form-data">
<p><label class="label" for="file">${esc(t('verify.fileLabel'))}</label>
<input class="input" id="file" name="file" type="file" accept="application/pdf,.pdf" required></p>
<p><button class="btn primary" type="submit">${esc(t('verify.submit'))}</button></p>
</form>
<div id="result" role="status" aria-live="polite">${shown}</div>
</section></main>
</body>
</html>
`;
}

/**
 * The page's script: posts the chosen file to the check and shows the verdict (text only, no
 * HTML), in the page's language: its messages come from the page (data-messages), the check's
 * errors and the verifier's sentences (`localized`) in the language it asks for (Accept-Language).
 */
const SCRIPT = `const root = document.documentElement;
const api = root.dataset.api;
const lang = root.lang || 'en';
const M = JSON.parse(root.dataset.messages || '{}');
const form = document.getElementById('verify-form');
const out = document.getElementById('result');
const fill = (text, name, value) => text.replace('{{' + name + '}}', value);
const ICONS = ${JSON.stringify(VERDICT_ICONS)};
// The verdict box, as the server draws it (verify-verdict.ts): a symbol, the words, what to do next.
function showVerdict(v) {
  out.replaceChildren();
  const box = document.createElement('section');
  box.className = 'verdict-box ' + v.kind;
  box.setAttribute('aria-labelledby', 'verdict-title');
  const icon = document.createElement('span');
  icon.className = 'verdict-icon';
  icon.setAttribute('aria-hidden', 'true');
  icon.textContent = ICONS[v.kind] || '?';
  const words = document.createElement('div');
  words.className = 'verdict-words';
  const h = document.createElement('h2');
  h.id = 'verdict-title';
  h.textContent = v.title;
  const p = document.createElement('p');
  p.textContent = v.text;
  words.append(h, p);
  if (v.next) {
    const next = document.createElement('p');
    next.className = 'verdict-next';
    next.textContent = v.next;
    words.append(next);
  }
  box.append(icon, words);
  out.append(box);
}
function showStatus(text) {
  out.replaceChildren();
  const p = document.createElement('p');
  p.textContent = text;
  out.append(p);
}
function detailsOf(lines) {
  const details = document.createElement('details');
  details.className = 'verify-details';
  const summary = document.createElement('summary');
  summary.textContent = M['verdict.details'];
  const dl = document.createElement('dl');
  dl.className = 'facts';
  for (const [k, v] of lines) {
    const dt = document.createElement('dt');
    dt.textContent = k;
    const dd = document.createElement('dd');
    dd.textContent = v;
    dl.append(dt, dd);
  }
  details.append(summary, dl);
  out.append(details);
  return details;
}
function showChecks(report, details) {
  if (!report) return;
  const h = document.createElement('h3');
  h.textContent = M.checksTitle;
  const note = document.createElement('p');
  const [before, after = ''] = M.checksNote.split('{{command}}');
  const code = document.createElement('code');
  code.textContent = 'npx esign-verify';
  note.append(before, code, after);
  const ul = document.createElement('ul');
  ul.className = 'checks';
  for (const c of report.checks) {
    const li = document.createElement('li');
    li.className = 'check ' + c.status;
    const label = document.createElement('strong');
    label.textContent = M['status.' + c.status] || c.status;
    const words = c.localized || c;
    li.append(label, ' ', words.title);
    if (words.next && c.status !== 'pass') {
      const next = document.createElement('span');
      next.className = 'next';
      next.textContent = words.next;
      li.append(document.createElement('br'), next);
    }
    ul.append(li);
  }
  const result = document.createElement('p');
  result.className = 'check-result ' + report.result;
  result.textContent = report.localized_result || '';
  details.append(h, note, ul, result);
}
function when(iso) {
  const d = new Date(iso);
  return isNaN(d.getTime()) ? iso
    : new Intl.DateTimeFormat(lang, { dateStyle: 'long', timeStyle: 'long', timeZone: 'UTC' }).format(d);
}
function verdict(r) {
  const lines = [];
  if (r.seal) {
    if (r.seal.signed_by) lines.push([M.sealedBy, r.seal.signed_by]);
    if (r.seal.signed_at) lines.push([M.sealedAt, when(r.seal.signed_at)]);
    if (r.seal.reason) lines.push([M.reason, r.seal.reason]);
    lines.push([M.seal, r.sealed ? M.sealIntact
      : r.seal.problem ? fill(M.sealBrokenProblem, 'problem', r.seal.problem)
      : r.seal.covers_whole_file ? M.sealBroken : M.sealChanged]);
  } else lines.push([M.seal, M.sealNone]);
  if (r.known) lines.push([M.auditTrail, r.audit_trail_intact ? M.auditIntact : M.auditBroken]);
  lines.push(['SHA-256', r.sha256]);
  showVerdict(r.verdict);
  showChecks(r.checks, detailsOf(lines));
}
form.addEventListener('submit', async (e) => {
  e.preventDefault();
  const file = form.elements.file.files[0];
  if (!file) return;
  const button = form.querySelector('button');
  button.disabled = true;
  showStatus(M.checking);
  try {
    const res = await fetch(api + '/check', {
      method: 'POST',
      headers: { 'content-type': 'application/pdf', 'accept-language': lang },
      body: file,
    });
    const body = await res.json();
    if (!res.ok) showVerdict({ kind: 'cannot_tell', title: M['verdict.cannotTell'], text: body.message || M.failed });
    else verdict(body);
  } catch {
    showVerdict({ kind: 'cannot_tell', title: M['verdict.cannotTell'], text: M.failed });
  } finally {
    button.disabled = false;
  }
});
`;

/** What each route of verify-routes.ts answers. */
export type TVerifyHandlers = Record<
  'page' | 'checkPage' | 'checkApi' | 'script',
  (req: TRequest) => Promise<TResponse>
>;

/** The page, the check and the script; `deps` are the signing Lambda's stores plus the seal reader. */
export function verifyHandlers(deps: TVerifyDeps): TVerifyHandlers {
  const headers = (req: TRequest) => securityHeaders(deps.config, { https: req.url.protocol === 'https:' });
  const html = (req: TRequest, status: number, text: string): TResponse => ({
    status,
    text,
    headers: { ...headers(req), 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' },
  });

  async function fileOf(req: TRequest): Promise<Buffer> {
    const { file } = await filesOf(req.body, ['file'], 'document.pdf');
    if (!file || file.bytes.length === 0) {
      throw said(
        new ValidationError('Choose a PDF file to check.', [
          { field: 'file', message: 'A file is required.', said: { key: 'errors.fileRequired' } },
        ]),
        'errors.chooseFile',
      );
    }
    return file.bytes;
  }

  return {
    page: async (req) => html(req, 200, page(basePath(req), visitorLanguage(req))),
    checkPage: async (req) => {
      const lang = visitorLanguage(req);
      try {
        return html(req, 200, page(basePath(req), lang, await checkFile(deps, await fileOf(req))));
      } catch (err) {
        // Any refusal of the file (none given, too large, too complex to check) is a "cannot
        // tell" verdict with its reason, at the refusal's own status; a server error stays one.
        const refused = toHttpError(err);
        if (refused.status >= 500) throw err;
        const said = (err as ServiceError).said;
        const message = said ? translator(lang)(said.key, said.values) : refused.message;
        return html(req, refused.status, page(basePath(req), lang, undefined, message));
      }
    },
    checkApi: async (req) => ({
      status: 200,
      body: localized(await checkFile(deps, await fileOf(req)), visitorLanguage(req)),
      headers: { ...headers(req), 'Cache-Control': 'no-store' },
    }),
    script: async (req) => ({
      status: 200,
      text: SCRIPT,
      headers: {
        ...headers(req),
        'Content-Type': 'text/javascript; charset=utf-8',
        'Cache-Control': 'public, max-age=300',
      },
    }),
  };
}
