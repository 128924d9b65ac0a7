// The /dev/mailbox pages. Every message carries user input (names, subjects, whole HTML bodies),
// so everything is escaped, and HTML bodies render only inside a sandbox that runs no scripts.
import type { TMailboxMessage } from './message';

export interface TMailboxPageOptions {
  /** Where the list is mounted; message pages are `${basePath}/${id}`. */
  basePath?: string;
}

const DEFAULT_BASE = '/dev/mailbox';

const STYLE = `
body{font:15px/1.45 system-ui,sans-serif;margin:0 auto;max-width:960px;padding:1.5rem;color:#1f2328}
h1{font-size:1.35rem;margin:0 0 1rem}
a{color:#0b5cad}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;padding:.45rem .6rem;border-bottom:1px solid #d8dee4;vertical-align:top}
th{font-weight:600;background:#f6f8fa}
.kind{font:12px monospace;text-transform:uppercase;padding:.1rem .35rem;border-radius:3px;background:#eef}
.kind-sms{background:#efe}
.muted{color:#656d76}
pre{white-space:pre-wrap;word-break:break-word;background:#f6f8fa;padding:1rem;border-radius:6px}
iframe{width:100%;height:70vh;border:1px solid #d8dee4;border-radius:6px;background:#fff}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.3rem 1rem}
dt{font-weight:600}
dd{margin:0}
`;

export function renderMailboxPage(messages: TMailboxMessage[], opts: TMailboxPageOptions = {}): string {
  const base = opts.basePath ?? DEFAULT_BASE;
  const rows = messages.map(
    (m) =>
      `<tr><td class="muted">${escapeHtml(m.time)}</td>` +
      `<td><span class="kind kind-${m.kind}">${m.kind}</span></td>` +
      `<td>${escapeHtml(recipients(m))}</td>` +
      `<td><a href="${escapeHtml(messageHref(base, m.id))}">${escapeHtml(summary(m) || '(empty)')}</a></td></tr>`,
  );
  const body =
    messages.length === 0
      ? '<p class="muted">No messages yet. Emails and text messages the service sends appear here.</p>'
      : '<table><thead><tr><th>Time</th><th>Kind</th><th>To</th><th>Subject / message</th></tr></thead>' +
        `<tbody>${rows.join('')}</tbody></table>`;
  return layout('Mailbox', `<h1>Mailbox <span class="muted">(${messages.length})</span></h1>${body}`);
}

export function renderMailboxMessage(message: TMailboxMessage, opts: TMailboxPageOptions = {}): string {
  const base = opts.basePath ?? DEFAULT_BASE;
  const headers: [string, string | undefined][] =
    message.kind === 'email'
      ? [
          ['Time', message.time],
          ['From', message.from],
          ['To', message.to.join(', ')],
          ['Cc', message.cc.join(', ') || undefined],
          ['Bcc', message.bcc.join(', ') || undefined],
          ['Reply-To', message.replyTo.join(', ') || undefined],
          ['Subject', message.subject],
          [
            'Attachments',
            message.attachments
              ?.map((a) => `${a.fileName} (${a.contentType}, ${a.size} bytes, SHA-256 ${a.sha256})`)
              .join('; '),
          ],
        ]
      : [
          ['Time', message.time],
          ['From', message.from],
          ['To', message.phone],
          ['Type', message.smsType],
        ];
  const dl = headers
    .filter((h): h is [string, string] => h[1] !== undefined && h[1] !== '')
    .map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`)
    .join('');
  const title = message.kind === 'email' ? message.subject : `SMS to ${message.phone}`;
  const html =
    message.kind === 'email' && message.html !== undefined
      ? // No allow-scripts and no allow-same-origin: the body can neither run code nor reach this
        // origin. Popups are allowed so that its links, opened in a new tab, still work.
        '<h2>HTML body</h2><iframe title="HTML body" referrerpolicy="no-referrer" ' +
        'sandbox="allow-popups allow-popups-to-escape-sandbox" ' +
        `srcdoc="${escapeHtml(linksInNewTab(message.html))}"></iframe>`
      : '';
  return layout(
    title || '(no subject)',
    `<p><a href="${escapeHtml(base)}">&larr; Mailbox</a></p>` +
      `<h1>${escapeHtml(title || '(no subject)')} <span class="kind kind-${message.kind}">${message.kind}</span></h1>` +
      `<dl>${dl}</dl><h2>Text</h2><pre>${linkify(message.text)}</pre>${html}`,
  );
}

function layout(title: string, content: string): string {
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width,initial-scale=1">' +
    // Defense in depth behind the escaping: this page never needs scripts, plugins or forms.
    `<meta http-equiv="Content-Security-Policy" content="script-src 'none'; object-src 'none'; form-action 'none'">` +
    `<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>${content}</body></html>`
  );
}

function recipients(m: TMailboxMessage): string {
  return m.kind === 'email' ? [...m.to, ...m.cc, ...m.bcc].join(', ') : m.phone;
}

function summary(m: TMailboxMessage): string {
  if (m.kind === 'email') return m.subject;
  return (m.text.split(/\r?\n/).find((line) => line.trim() !== '') ?? '').trim();
}

function messageHref(base: string, id: string): string {
  return `${base.replace(/\/+$/, '')}/${encodeURIComponent(id)}`;
}

// Trailing punctuation usually ends the sentence, not the URL.
const URL_PATTERN = /\bhttps?:\/\/[^\s<>"']+[^\s<>"'.,;:!?)\]}]/g;

/** Escapes text and turns http(s) URLs in it into links; other schemes stay text. */
export function linkify(text: string): string {
  let out = '';
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    const url = match[0];
    out += escapeHtml(text.slice(last, match.index));
    const safe = escapeHtml(url);
    out += `<a href="${safe}" target="_blank" rel="noopener noreferrer">${safe}</a>`;
    last = match.index + url.length;
  }
  return out + escapeHtml(text.slice(last));
}

/**
 * Links in a srcdoc document would otherwise navigate the iframe itself, where the sandbox
 * would cripple the page they open.
 */
function linksInNewTab(html: string): string {
  const base = '<base target="_blank">';
  // After the doctype, if any, so the document keeps its rendering mode.
  const doctype = /^\s*<!doctype[^>]*>/i.exec(html);
  return doctype ? doctype[0] + base + html.slice(doctype[0].length) : base + html;
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
