// `npm run demo`: the README's first five minutes, done by a script against the running local
// service, over HTTP only, as a newcomer would by hand: send the sample PDF to a signer, find the
// signing email in the local mailbox and open its link, sign as the signing page does (the signer
// API, docs/signer-api.md), wait for the sealed document and download it. Each step is printed.
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';

export interface TDemoOptions {
  /** The service's base URL, e.g. http://127.0.0.1:3000 (no /api/v2). */
  baseUrl: string;
  apiKey: string;
  /** The PDF to send. */
  pdfPath: string;
  /** Where the sealed PDF is written. */
  outPath: string;
  /** Each step, as a line a person reads. */
  say: (line: string) => void;
  /** How long to wait for the email and for the sealed document. */
  timeoutMs?: number;
}

export interface TDemoResult {
  bundleId: string;
  signingLink: string;
  outPath: string;
  bytes: number;
  sha256: string;
}

/** The signer and the field the sample document is sent with (the README's first five minutes). */
export const DEMO_SIGNER = { key: 'ann', name: 'Ann Lee', email: 'ann@example.com' };
/** x, y, w, h: percent of the page, from its top-left corner (the sample's signature line). */
export const DEMO_FIELD = { kind: 'sig', key: 'signature', page: 1, x: 12, y: 70, w: 40, h: 8 };

class DemoError extends Error {}

async function answer(res: Response, what: string, status: number): Promise<Record<string, unknown>> {
  const text = await res.text();
  if (res.status !== status) throw new DemoError(`${what} answered ${res.status}: ${text.slice(0, 300)}`);
  return text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
}

async function poll<T>(what: string, timeoutMs: number, attempt: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (let wait = 100; ; wait = Math.min(wait * 2, 1000)) {
    const found = await attempt();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new DemoError(`${what}: nothing after ${timeoutMs / 1000} s.`);
    await new Promise((r) => setTimeout(r, wait));
  }
}

interface TMailboxEntry {
  id: string;
  kind: string;
  to?: string[];
  subject?: string;
  text: string;
}

export async function runDemo(o: TDemoOptions): Promise<TDemoResult> {
  const base = o.baseUrl.replace(/\/+$/, '');
  const timeoutMs = o.timeoutMs ?? 120_000;
  const auth = { authorization: `Token ${o.apiKey}` };
  const mailbox = async () =>
    (await answer(
      await fetch(`${base}/dev/mailbox.json`),
      'GET /dev/mailbox.json',
      200,
    )) as unknown as TMailboxEntry[];

  // 0. The service answers, and the key is one it knows.
  try {
    await answer(
      await fetch(`${base}/api/v2/rate_limit/`, { headers: auth }),
      'GET /api/v2/rate_limit/',
      200,
    );
  } catch (err) {
    if (err instanceof DemoError) throw err;
    throw new DemoError(`No service answers at ${base}: start it with \`npm start\` in another terminal.`);
  }
  const before = new Set((await mailbox()).map((m) => m.id));

  // 1. Send the sample PDF to one signer, with one signature field.
  const pdf = await readFile(o.pdfPath);
  o.say(`1. Sending ${o.pdfPath} (${pdf.length} bytes) to ${DEMO_SIGNER.name} <${DEMO_SIGNER.email}>…`);
  const form = new FormData();
  form.append('files[0]', new Blob([pdf], { type: 'application/pdf' }), 'sample.pdf');
  form.append(
    'bundle_request',
    JSON.stringify({
      label: 'Sample agreement',
      packets: [DEMO_SIGNER],
      documents: [{ key: 'sample', file_index: 0, fields: [{ ...DEMO_FIELD, editors: [DEMO_SIGNER.key] }] }],
    }),
  );
  const bundle = await answer(
    await fetch(`${base}/api/v2/bundles/`, { method: 'POST', headers: auth, body: form }),
    'POST /api/v2/bundles/',
    201,
  );
  const bundleId = String(bundle.id);
  o.say(`   Bundle ${bundleId} created, status "${String(bundle.status)}".`);

  // 2. The signing email, in the local mailbox.
  o.say(`2. Waiting for the signing email in the mailbox (${base}/dev/mailbox)…`);
  const email = await poll('The signing email', timeoutMs, async () =>
    (await mailbox()).find(
      (m) => !before.has(m.id) && m.kind === 'email' && m.to?.includes(DEMO_SIGNER.email),
    ),
  );
  const signingLink = /https?:\/\/\S+\/sign\/[A-Za-z0-9_-]+/.exec(email.text)?.[0];
  if (!signingLink) throw new DemoError(`The email "${email.subject}" carries no signing link.`);
  o.say(`   "${email.subject}": ${base}/dev/mailbox/${encodeURIComponent(email.id)}`);
  o.say(`   Its link: ${signingLink}`);

  // 3. Sign as the signing page does: open a session with the link, fill the field, finish.
  o.say(`3. Signing as ${DEMO_SIGNER.name}: opening the link, typing the signature, finishing…`);
  const token = new URL(signingLink).pathname.split('/').pop()!;
  const signApi = (method: string, path: string, session: string | undefined, body?: unknown) =>
    fetch(`${base}/sign/api${path}`, {
      method,
      headers: {
        'content-type': 'application/json',
        ...(session ? { 'x-signing-session': session } : {}),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const opened = await answer(
    await signApi('POST', '/session', undefined, { token }),
    'POST /sign/api/session',
    201,
  );
  const session = String(opened.session);
  await answer(
    await signApi('PUT', '/values', session, {
      values: [{ doc_key: 'sample', field_key: DEMO_FIELD.key, value: `typed:${DEMO_SIGNER.name}` }],
    }),
    'PUT /sign/api/values',
    200,
  );
  const done = await answer(
    await signApi('POST', '/complete', session, { consent: true }),
    'POST /sign/api/complete',
    200,
  );
  const status = (done.bundle as { status?: string } | undefined)?.status;
  o.say(`   Signed; the bundle is now "${status}" (complete).`);

  // 4. The sealed document, once the service has stamped and sealed it.
  o.say('4. Waiting for the sealed document…');
  const final = await poll('The sealed document', timeoutMs, async () => {
    const res = await fetch(`${base}/api/v2/bundles/${bundleId}/files/`, { headers: auth });
    // 409 until the documents are ready.
    if (res.status === 409) return undefined;
    const files = (await answer(res, `GET /api/v2/bundles/${bundleId}/files/`, 200)) as unknown as {
      kind?: string;
      file_url?: string;
    }[];
    return files.find((f) => f.kind === 'final' && f.file_url);
  });
  const download = await fetch(final.file_url!);
  if (download.status !== 200)
    throw new DemoError(`Downloading the sealed document answered ${download.status}.`);
  const bytes = Buffer.from(await download.arrayBuffer());
  await writeFile(o.outPath, bytes);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  o.say(`   Saved ${o.outPath} (${bytes.length} bytes, SHA-256 ${sha256}).`);
  o.say(`Done. Open ${o.outPath}, or check it is genuine at ${base}/verify.`);
  return { bundleId, signingLink, outPath: o.outPath, bytes: bytes.length, sha256 };
}

export const isDemoError = (err: unknown): err is Error => err instanceof DemoError;
