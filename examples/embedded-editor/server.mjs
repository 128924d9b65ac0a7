// An integrator's app that shows the eSignature service's editor in an iframe: it creates a
// draft bundle with its API key (never sent to the browser), asks for the draft's editor link
// (POST /api/v2/bundles/{id}/prepare_url/) and hands only that link to its page, which frames it
// and listens for the editor's messages. No dependencies: node server.mjs (Node 20 or newer).
//
//   ESIGN_URL      the service (default http://localhost:3000)
//   ESIGN_API_KEY  an API key of the account whose embed origins list this app's origin
//   PORT           where this app listens (default 5173: http://localhost:5173)
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';

const ESIGN_URL = (process.env.ESIGN_URL ?? 'http://localhost:3000').replace(/\/$/, '');
const API_KEY = process.env.ESIGN_API_KEY;
const PORT = Number(process.env.PORT ?? 5173);
if (!API_KEY) {
  console.error('Set ESIGN_API_KEY to an API key of the account (npm start prints the demo one).');
  process.exit(1);
}

/** Calls the service's API with the app's key; throws its error message on a failure. */
async function esign(method, path, body) {
  const res = await fetch(`${ESIGN_URL}/api/v2${path}`, {
    method,
    headers: { Authorization: `Token ${API_KEY}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(`${res.status} ${data.message ?? ''} ${JSON.stringify(data.errors ?? [])}`);
  return data;
}

/** A draft for two signers over the service's sample PDF; the editor places their fields. */
async function newDraft({ signerName, signerEmail }) {
  const draft = await esign('POST', '/bundles/', {
    label: 'Agreement from the partner app',
    status: 'dr',
    packets: [
      { key: 'signer', name: signerName || 'Ann Lee', email: signerEmail || 'ann@example.com' },
      { key: 'countersigner', name: 'Bob Roe', email: 'bob@example.com' },
    ],
    // Locally the service serves its own sample; elsewhere give an https file_url or file_b64.
    documents: [{ key: 'agreement', name: 'Agreement', file_url: `${ESIGN_URL}/dev/sample.pdf` }],
  });
  return draft.id;
}

async function readJson(req) {
  let text = '';
  for await (const chunk of req) text += chunk;
  return text ? JSON.parse(text) : {};
}

const send = (res, status, type, body) => {
  res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store' });
  res.end(body);
};

createServer(async (req, res) => {
  try {
    if (req.method === 'GET' && req.url === '/') {
      const page = await readFile(new URL('./index.html', import.meta.url), 'utf8');
      // The page checks each message's origin against the service's.
      return send(
        res,
        200,
        'text/html; charset=utf-8',
        page.replace('%ESIGN_ORIGIN%', new URL(ESIGN_URL).origin),
      );
    }
    if (req.method === 'POST' && req.url === '/editor') {
      // A new draft, or one the app made before (a draft link lasts an hour: ask for a new one).
      const body = await readJson(req);
      const id = body.bundle_id || (await newDraft(body));
      const link = await esign('POST', `/bundles/${encodeURIComponent(id)}/prepare_url/`, {});
      return send(res, 200, 'application/json', JSON.stringify({ bundle_id: id, url: link.url }));
    }
    send(res, 404, 'text/plain', 'Not found.\n');
  } catch (err) {
    send(res, 502, 'application/json', JSON.stringify({ message: err.message }));
  }
}).listen(PORT, () => console.log(`Partner app on http://localhost:${PORT} (service: ${ESIGN_URL})`));
