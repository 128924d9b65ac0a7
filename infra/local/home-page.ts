// The local runtime's front door: `/` is a short page of where things are (the console first,
// then the API reference, the mailbox, the verify page) for someone who opens the printed address in a browser, and
// `/dev/sample.pdf` is the sample document the README's first five minutes and `npm run demo`
// send (and that the bulk example fetches by `file_url`, which the local runtime may read from
// this machine: config.fetch allows loopback).
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';

/** The sample document, kept in the repository beside the docs. */
export const SAMPLE_PDF_PATH = fileURLToPath(new URL('../../docs/sample.pdf', import.meta.url));
export const SAMPLE_PDF_URL_PATH = '/dev/sample.pdf';

const HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
  'cache-control': 'no-store',
};

const STYLE = `
body{font:16px/1.5 system-ui,sans-serif;margin:0 auto;max-width:44rem;padding:1.5rem;color:#1f2328}
h1{font-size:1.5rem;margin:0 0 .5rem}
h2{font-size:1.1rem;margin:1.5rem 0 .5rem}
a{color:#0b5cad}
li{margin:.35rem 0}
code,pre{font:14px ui-monospace,monospace;background:#f6f8fa;border-radius:4px}
code{padding:.1rem .3rem}
pre{padding:.75rem 1rem;white-space:pre-wrap}
.muted{color:#57606a}
.start{display:inline-block;margin:.5rem 0 1rem;padding:.6rem 1.2rem;border-radius:6px;background:#0b5cad;color:#fff;font-weight:600;text-decoration:none}
.start:focus-visible{outline:3px solid #0b5cad;outline-offset:2px}
`;

/** The page at `/`: links to what a newcomer looks for first. Nothing on it comes from a request. */
export function renderHomePage(apiUrl: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>eSignature service (local)</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>eSignature service</h1>
<p class="muted">Running on this machine. The API is at <code>${apiUrl}</code>, with the key <code>npm start</code> printed.</p>
<p>Send documents and follow them from the browser:</p>
<p><a class="start" href="/console/">Open the console</a></p>
<nav aria-label="Where to go">
<ul>
<li><a href="/docs">API reference</a>: every endpoint, its fields and answers</li>
<li><a href="/dev/mailbox">Mailbox</a>: every email and text message the service sent, with the signing links</li>
<li><a href="/verify">Verify a document</a>: check that a signed PDF is genuine and unchanged</li>
<li><a href="${SAMPLE_PDF_URL_PATH}">Sample PDF</a>: a one-page document to send</li>
</ul>
</nav>
<h2>Send a document in one command</h2>
<p>In another terminal, in the repository:</p>
<pre>npm run demo</pre>
<p>It sends the sample PDF to a signer, opens the signing link from the mailbox, signs, and downloads the sealed PDF, saying what it does at each step.</p>
</main>
</body>
</html>
`;
}

/** `/` and `/dev/sample.pdf`; answers true when it handled the request. */
export function homePages(apiUrl: () => string) {
  let sample: Buffer | undefined;
  return async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    if (url.pathname === '/') {
      res.writeHead(200, HEADERS);
      res.end(req.method === 'HEAD' ? undefined : renderHomePage(apiUrl()));
      return true;
    }
    if (url.pathname === SAMPLE_PDF_URL_PATH) {
      sample ??= readFileSync(SAMPLE_PDF_PATH);
      res.writeHead(200, {
        'content-type': 'application/pdf',
        'content-length': sample.length,
        'content-disposition': 'inline; filename="sample.pdf"',
      });
      res.end(req.method === 'HEAD' ? undefined : sample);
      return true;
    }
    return false;
  };
}
