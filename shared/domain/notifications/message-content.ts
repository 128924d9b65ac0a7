// What the messages say. Every piece of text here may come from a sender or a signer (labels,
// names, messages, decline reasons), so the HTML part escapes all of it; links are ours.

export interface TEmailContent {
  subject: string;
  text: string;
  html: string;
}

export interface TEmailBody {
  subject: string;
  /** The first line, e.g. "Hello Ann,". */
  greeting?: string;
  /** Plain text; blank lines separate paragraphs, single line breaks are kept. */
  paragraphs: string[];
  button?: { label: string; url: string };
  /** Small print under the message. */
  footer: string[];
  /** The message's language (an IETF tag) and its direction, for the HTML part; English by default. */
  lang?: string;
  dir?: 'ltr' | 'rtl';
  /** The line under the button for mail clients that do not show it, in the message's language. */
  buttonFallback?: string;
}

/** First-strong isolate … pop directional isolate: plain text's <bdi>. */
export const FSI = '\u2068';
export const PDI = '\u2069';
const RTL_CHARS = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]/;

/**
 * A sender's or signer's text set apart from the sentence around it, so its own direction holds:
 * an English label in an Arabic sentence keeps its full stop at its end, an Arabic name in an
 * English one does not reorder its neighbours. Only where directions can mix (a right-to-left
 * message, or a text with right-to-left letters): the isolates are not in SMS's GSM alphabet, and
 * would halve a Latin text message's length. The HTML part shows them as <bdi>.
 */
export function isolate(s: string, dir: 'ltr' | 'rtl'): string {
  return s !== '' && (dir === 'rtl' || RTL_CHARS.test(s)) ? `${FSI}${s}${PDI}` : s;
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** One line: subjects and names never carry line breaks into a header. */
export function oneLine(s: string, max = 400): string {
  const line = s.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** Escaped text with its line breaks, and its isolates as <bdi> (which mail clients honour better). */
const htmlText = (s: string) =>
  escapeHtml(s).replace(/\r?\n/g, '<br>').replaceAll(FSI, '<bdi>').replaceAll(PDI, '</bdi>');

/** The same message as text and as simple, inline-styled HTML (mail clients ignore style sheets). */
export function renderEmail(body: TEmailBody): TEmailContent {
  const text = [
    ...(body.greeting ? [body.greeting] : []),
    ...body.paragraphs,
    ...(body.button ? [`${body.button.label}: ${body.button.url}`] : []),
    ['--', ...body.footer].join('\n'),
  ].join('\n\n');

  const p = (s: string) => `<p style="margin:0 0 16px">${htmlText(s)}</p>`;
  const button = body.button
    ? `<p style="margin:24px 0"><a href="${escapeHtml(body.button.url)}" ` +
      'style="display:inline-block;padding:12px 24px;background:#0b5cad;color:#ffffff;' +
      'text-decoration:none;border-radius:6px;font-weight:600">' +
      `${escapeHtml(body.button.label)}</a></p>` +
      `<p style="margin:0 0 16px;font-size:13px;color:#656d76">${escapeHtml(body.buttonFallback ?? 'If the button does not work, open this link:')} ` +
      `<a href="${escapeHtml(body.button.url)}" style="color:#0b5cad;word-break:break-all">` +
      `${escapeHtml(body.button.url)}</a></p>`
    : '';
  const footer = body.footer
    .map((line) => `<p style="margin:0 0 6px;font-size:12px;color:#656d76">${htmlText(line)}</p>`)
    .join('');
  const html =
    `<!doctype html><html lang="${escapeHtml(body.lang ?? 'en')}" dir="${body.dir ?? 'ltr'}"><head><meta charset="utf-8">` +
    '<meta name="viewport" content="width=device-width,initial-scale=1">' +
    `<title>${escapeHtml(body.subject)}</title></head>` +
    '<body style="margin:0;padding:24px;background:#f6f8fa;font:15px/1.5 system-ui,-apple-system,Segoe UI,sans-serif;color:#1f2328">' +
    '<div style="max-width:560px;margin:0 auto;background:#ffffff;border:1px solid #d8dee4;border-radius:8px;padding:24px">' +
    (body.greeting ? p(body.greeting) : '') +
    body.paragraphs.map(p).join('') +
    button +
    `<hr style="border:none;border-top:1px solid #d8dee4;margin:24px 0 12px">${footer}` +
    '</div></body></html>';
  return { subject: body.subject, text, html };
}
