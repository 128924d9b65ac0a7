// A bundle signed to the end through the signer API, as its signers would, and its final files
// once the document worker made them: for the tests of what happens after completion.
import { expect } from 'vitest';
import { eventually } from './receiver';
import type { apiClient } from './runtime';
import { PNG_DATA_URL, type signerClient } from './signer';

/** Opens a session with a link token, signs every field of `fields` with a drawn mark, finishes. */
export async function signWithToken(
  sign: ReturnType<typeof signerClient>,
  token: string,
  docKey: string,
  fieldKeys: string[],
): Promise<string> {
  const opened = await sign('POST', '/session', undefined, { token });
  expect(opened.status, JSON.stringify(opened.body)).toBe(201);
  const session = opened.body.session as string;
  const values = fieldKeys.map((k) => ({ doc_key: docKey, field_key: k, image: PNG_DATA_URL }));
  const saved = await sign('PUT', '/values', session, { values });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  const done = await sign('POST', '/complete', session, { consent: true });
  expect(done.status, JSON.stringify(done.body)).toBe(200);
  return session;
}

/** Waits for the bundle's documents to be ready; answers the bundle as the API shows it. */
export async function docsReady(call: ReturnType<typeof apiClient>, id: string) {
  const b = await eventually(
    async () => {
      const got = (await call('GET', `/bundles/${id}/`)).body;
      return got.docs_ready || got.status === 'fa' ? got : undefined;
    },
    60_000,
    'documents ready',
  );
  expect(b.docs_ready, JSON.stringify(b.errors)).toBe(true);
  return b;
}

/** The bundle's files by kind and key, downloaded. */
export async function finalFiles(call: ReturnType<typeof apiClient>, id: string) {
  const res = await call('GET', `/bundles/${id}/files/`);
  expect(res.status, res.text).toBe(200);
  const out = new Map<string, Buffer>();
  for (const f of res.body as { file_url: string; doc_key: string; kind: string }[]) {
    const got = await fetch(f.file_url);
    expect(got.status).toBe(200);
    out.set(`${f.kind}:${f.doc_key}`, Buffer.from(await got.arrayBuffer()));
  }
  return out;
}

/** An embedded one-signer bundle, signed and with its documents ready: its final document. */
export async function aSealedFinal(
  call: ReturnType<typeof apiClient>,
  sign: ReturnType<typeof signerClient>,
  pdfB64: string,
): Promise<{ final: Buffer; certificate: Buffer }> {
  const created = await call('POST', '/bundles/', {
    json: {
      label: 'Sealed for checking',
      packets: [{ key: 'ann', name: 'Ann Lee', email: 'ann.verify@example.com', deliver_via: 'embed' }],
      documents: [
        {
          key: 'lease',
          file_b64: pdfB64,
          fields: [{ key: 'sig', kind: 'sig', page: 1, x: 10, y: 70, w: 30, h: 6, editors: ['ann'] }],
        },
      ],
    },
  });
  expect(created.status, created.text).toBe(201);
  const embed = await call('POST', `/packets/${created.body.packets[0].id}/embed_url/`);
  expect(embed.status, embed.text).toBe(201);
  const token = new URL(embed.body.url).pathname.split('/').pop()!;
  await signWithToken(sign, token, 'lease', ['sig']);
  await docsReady(call, created.body.id);
  const files = await finalFiles(call, created.body.id);
  return { final: files.get('final:lease')!, certificate: files.get('certificate:coe-ann')! };
}
