// Every signer, and every cc recipient, gets the signed documents once they are ready: a message in
// their language (email, or SMS for a signer with only a phone) with a link of their own to the
// final documents and, for a signer, their own Certificate of Evidence; the files attached to the
// email where the account allows it. The link expires (410, in their language), opens nothing of
// another signer, and a finished signer's own signing link opens the same downloads. Through real
// HTTP against the local runtime, read from its mailbox as the recipients would.
import { createHash } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataPaths } from '#infra/local/layout';
import type { TMailboxEmail, TMailboxMessage, TMailboxSms } from '#infra/local/mailbox/message';
import { listMailbox } from '#infra/local/mailbox/store';
import type { TRuntime } from '#infra/local/runtime';
import { createAccountStore } from '#shared/adapters/dynamodb/account-store';
import { evidenceKeys } from '#shared/adapters/dynamodb/entities/evidence';
import { aPdfB64 } from '../helpers/bundles';
import { docsReady, signWithToken } from '../helpers/completed-bundle';
import { pdfsig } from '../helpers/poppler';
import { eventually } from '../helpers/receiver';
import { apiClient, startTestRuntime } from '../helpers/runtime';
import { PNG_DATA_URL, signerClient } from '../helpers/signer';

let runtime: TRuntime;
let call: ReturnType<typeof apiClient>;

const u = Date.now().toString(36);
const ANN = `ann-${u}@example.com`;
const CC = `cc-${u}@example.com`;
const BOB_PHONE = '+15550107311';
const LABEL = `Copies lease ${u}`;

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const outbox = () => listMailbox(dataPaths(runtime.dataDir).mailbox);
const signingLink = () => new RegExp(`${runtime.baseUrl}/sign/[0-9A-Za-z]{43}`);
const copyLink = () => new RegExp(`${runtime.baseUrl}/sign/copies/[0-9A-Za-z]{43}`);
const tokenOf = (url: string) => url.split('/').pop()!;

/** The first message to `to` (an address or a phone) whose text holds a match of `link`. */
const messageTo = <T extends TMailboxMessage>(to: string, link: () => RegExp, what: string) =>
  eventually(
    async () =>
      (await outbox()).find(
        (m) => (m.kind === 'email' ? m.to.includes(to) : m.phone === to) && link().test(m.text),
      ) as T | undefined,
    60_000,
    what,
  );

let bundle: { id: string; packets: { id: string }[] };
/** The packets as created: Ann first, then Bob. */
const packetOf = (key: 'ann' | 'bob') => bundle.packets[key === 'ann' ? 0 : 1]!;
let annSigning: string;
let bobSigning: string;
let bobSession: string;
/** The state Bob's finish was answered with. */
let bobFinished: { signed_copies: unknown };
let mail: { ann: TMailboxEmail; cc: TMailboxEmail; bob: TMailboxSms };
let links: { ann: string; cc: string; bob: string };
let shas: { final: string; annCertificate: string; bobCertificate: string };

beforeAll(async () => {
  runtime = await startTestRuntime();
  call = apiClient(runtime);
  const sign = signerClient(runtime);
  // The account lets the copies go with the email (they are small enough here).
  await createAccountStore(runtime.db, runtime.config.tableName).setFeatures(runtime.demo.accountId, {
    email_attachments: true,
  });
  const pdf = await aPdfB64();
  const created = await call('POST', '/bundles/', {
    json: {
      label: LABEL,
      cc_emails: [CC],
      packets: [
        { key: 'ann', name: 'Ann Lee', email: ANN, language: 'de' },
        { key: 'bob', name: 'Bob Roe', phone: BOB_PHONE, deliver_via: 'phone' },
      ],
      documents: [
        {
          key: 'lease',
          file_b64: pdf,
          fields: [
            { key: 'ann_sig', kind: 'sig', page: 1, x: 10, y: 70, w: 30, h: 6, editors: ['ann'] },
            { key: 'bob_sig', kind: 'sig', page: 1, x: 50, y: 70, w: 30, h: 6, editors: ['bob'] },
          ],
        },
      ],
    },
  });
  expect(created.status, created.text).toBe(201);
  bundle = created.body;
  // Each signer signs from the link they were sent, as they would.
  const annRequest = await messageTo<TMailboxEmail>(ANN, signingLink, 'the signing email to Ann');
  annSigning = signingLink().exec(annRequest.text)![0];
  await signWithToken(sign, tokenOf(annSigning), 'lease', ['ann_sig']);
  const bobRequest = await messageTo<TMailboxSms>(BOB_PHONE, signingLink, 'the signing SMS to Bob');
  bobSigning = tokenOf(signingLink().exec(bobRequest.text)![0]);
  // Bob finishes last, by hand: what his done page is told at that moment.
  const opened = await sign('POST', '/session', undefined, { token: bobSigning });
  expect(opened.status, JSON.stringify(opened.body)).toBe(201);
  bobSession = opened.body.session as string;
  const saved = await sign('PUT', '/values', bobSession, {
    values: [{ doc_key: 'lease', field_key: 'bob_sig', image: PNG_DATA_URL }],
  });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  const finished = await sign('POST', '/complete', bobSession, { consent: true });
  expect(finished.status, JSON.stringify(finished.body)).toBe(200);
  bobFinished = finished.body;
  await docsReady(call, bundle.id);

  const files = (await call('GET', `/bundles/${bundle.id}/files/`)).body as {
    kind: string;
    sha256: string;
    packet_id?: string;
  }[];
  const certificateOf = (key: string) =>
    files.find((f) => f.kind === 'certificate' && f.packet_id === packetOf(key as 'ann' | 'bob').id)!.sha256;
  shas = {
    final: files.find((f) => f.kind === 'final')!.sha256,
    annCertificate: certificateOf('ann'),
    bobCertificate: certificateOf('bob'),
  };
  mail = {
    ann: await messageTo<TMailboxEmail>(ANN, copyLink, 'the copies email to Ann'),
    cc: await messageTo<TMailboxEmail>(CC, copyLink, 'the copies email to the cc'),
    bob: await messageTo<TMailboxSms>(BOB_PHONE, copyLink, 'the copies SMS to Bob'),
  };
  links = {
    ann: copyLink().exec(mail.ann.text)![0],
    cc: copyLink().exec(mail.cc.text)![0],
    bob: copyLink().exec(mail.bob.text)![0],
  };
}, 180_000);
afterAll(async () => {
  await runtime?.stop();
});

const get = (url: string, headers: Record<string, string> = {}) => fetch(url, { headers });
const bytesOf = async (res: Response) => Buffer.from(await res.arrayBuffer());

describe('when the documents are ready', () => {
  it('emails each signer in their language, with their own link and the files attached', () => {
    expect(mail.ann.subject).toBe(`Dokumente fertig: ${LABEL}`);
    expect(mail.ann.text).toContain(
      'Laden Sie die unterschriebenen Dokumente und Ihr Nachweiszertifikat über die Schaltfläche unten herunter.',
    );
    expect(mail.ann.text).toContain('Sie sind dieser E-Mail außerdem angehängt.');
    expect(mail.ann.html).toContain('Dokumente herunterladen');
    // The final document and her own certificate, exactly the files the bundle's API lists.
    expect(mail.ann.attachments?.map((a) => [a.contentType, a.sha256]).sort()).toEqual(
      [
        ['application/pdf', shas.final],
        ['application/pdf', shas.annCertificate],
      ].sort(),
    );
    expect(mail.ann.attachments?.map((a) => a.sha256)).not.toContain(shas.bobCertificate);
  });

  it('emails the cc list the final documents only, and texts a signer who has only a phone', () => {
    expect(mail.cc.subject).toBe(`Documents ready: ${LABEL}`);
    expect(mail.cc.text).toContain('Download the signed documents with the button below.');
    expect(mail.cc.attachments?.map((a) => a.sha256)).toEqual([shas.final]);
    expect(mail.bob.text).toMatch(
      new RegExp(
        `^Demo Account: everyone has signed "${LABEL}"\\. Download your signed copy: ${copyLink().source}$`,
      ),
    );
    // Every link is its own.
    expect(new Set(Object.values(links)).size).toBe(3);
  });

  it("opens the signer's downloads page in their language, with the sealed document and their own certificate", async () => {
    const page = await get(links.ann);
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-store');
    const html = await page.text();
    expect(html).toContain('<html lang="de" dir="ltr">');
    expect(html).toContain('<h1 id="copies-title">Ihre unterschriebenen Dokumente</h1>');
    expect(html).toContain(`${new URL(links.ann).pathname}/document-lease.pdf`);
    expect(html).toContain(`${new URL(links.ann).pathname}/certificate-of-evidence.pdf`);

    const final = await get(`${links.ann}/document-lease.pdf`);
    expect(final.status).toBe(200);
    expect(final.headers.get('content-type')).toBe('application/pdf');
    expect(final.headers.get('content-disposition')).toMatch(/^attachment; filename="/);
    const finalPdf = await bytesOf(final);
    expect(sha(finalPdf)).toBe(shas.final);
    expect(pdfsig(finalPdf).split(/Signature #\d+:/)[1]).toContain('Signature is Valid.');

    const certificate = await bytesOf(await get(`${links.ann}/certificate-of-evidence.pdf`));
    expect(sha(certificate)).toBe(shas.annCertificate);
    expect(pdfsig(certificate)).toContain('Signature is Valid.');
    // Bob's own link opens his certificate, not Ann's.
    expect(sha(await bytesOf(await get(`${links.bob}/certificate-of-evidence.pdf`)))).toBe(
      shas.bobCertificate,
    );
  });

  it("reaches no other signer's certificate, and gives a cc recipient no certificate at all", async () => {
    const bob = packetOf('bob');
    for (const file of [
      'certificate-of-evidence-bob.pdf',
      `certificate-of-evidence-${bob.id}.pdf`,
      'coe-bob',
      `coe/${bundle.id}/${bob.id}.pdf`,
      '..%2F..%2Fcopies',
    ]) {
      const res = await get(`${links.ann}/${file}`);
      expect(res.status, file).toBe(404);
      expect(sha(await bytesOf(res))).not.toBe(shas.bobCertificate);
    }
    const ccPage = await (await get(links.cc)).text();
    expect(ccPage).toContain('document-lease.pdf');
    expect(ccPage).not.toContain('certificate-of-evidence');
    expect((await get(`${links.cc}/certificate-of-evidence.pdf`)).status).toBe(404);
    expect(sha(await bytesOf(await get(`${links.cc}/document-lease.pdf`)))).toBe(shas.final);
  });

  it("opens the same downloads from the signer's own signing link once everything is signed", async () => {
    const page = await get(annSigning);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<h1 id="copies-title">Ihre unterschriebenen Dokumente</h1>');
    const signingPath = `/sign/copies/${tokenOf(annSigning)}`;
    expect(html).toContain(`${signingPath}/certificate-of-evidence.pdf`);
    const certificate = await get(`${runtime.baseUrl}${signingPath}/certificate-of-evidence.pdf`);
    expect(certificate.status).toBe(200);
    expect(sha(await bytesOf(certificate))).toBe(shas.annCertificate);
  });

  it('answers an unknown link 404 and an expired one 410, in the language it was sent in', async () => {
    const unknown = await get(`${runtime.baseUrl}/sign/copies/${'x'.repeat(43)}`, {
      'accept-language': 'fr',
    });
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain('Ce lien ne fonctionne pas');

    // Ann's link as it is after its time: the stored expiry moved into the past.
    const hash = sha(Buffer.from(tokenOf(links.ann), 'utf8'));
    await runtime.db.send(
      new UpdateCommand({
        TableName: runtime.config.tableName,
        Key: evidenceKeys.copyLink(hash),
        UpdateExpression: 'SET expires = :past',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':past': '2026-01-02T00:00:00.000Z' },
      }),
    );
    const expired = await get(links.ann, { 'accept-language': 'en' });
    expect(expired.status).toBe(410);
    const html = await expired.text();
    expect(html).toContain('<html lang="de" dir="ltr">');
    expect(html).toContain('Dieser Link ist abgelaufen');
    expect(html).toContain('2. Januar 2026');
    const file = await get(`${links.ann}/document-lease.pdf`);
    expect(file.status).toBe(410);
    expect(file.headers.get('content-type')).toContain('text/html');
    // The others' links still work.
    expect((await get(links.cc)).status).toBe(200);
  });
});

describe("the signer's page once they finished", () => {
  it('says the bundle is being sealed, then offers the copies through their signing link', async () => {
    const sign = signerClient(runtime);
    // At the moment the last signer finished: complete, not sealed yet, a message to come.
    expect(bobFinished.signed_copies).toEqual({ by_message: true, copies: { status: 'pending', files: [] } });
    const state = (await sign('GET', '/state', bobSession)).body;
    expect(state.signed_copies).toEqual({
      by_message: true,
      copies: {
        status: 'ready',
        files: [
          { file: 'document-lease.pdf', kind: 'final', name: 'lease.pdf', size: expect.any(Number) },
          {
            file: 'certificate-of-evidence.pdf',
            kind: 'certificate',
            name: 'certificate-of-evidence-bob.pdf',
            size: expect.any(Number),
          },
        ],
      },
    });
    // Each downloads by the signing link the page was opened with: his own certificate, the sealed final.
    for (const [file, expected] of [
      ['document-lease.pdf', shas.final],
      ['certificate-of-evidence.pdf', shas.bobCertificate],
    ] as const) {
      const res = await fetch(`${runtime.baseUrl}/sign/copies/${bobSigning}/${file}`);
      expect(res.status, file).toBe(200);
      expect(sha(new Uint8Array(await res.arrayBuffer())), file).toBe(expected);
    }
  });

  it('offers no downloads on an embedded session, and says when no message will come', async () => {
    const sign = signerClient(runtime);
    const created = await call('POST', '/bundles/', {
      json: {
        label: `${LABEL} embedded`,
        packets: [
          {
            key: 'eve',
            name: 'Eve Ray',
            email: `eve-${u}@example.com`,
            deliver_via: 'embed',
            suppress_docs_ready: true,
          },
        ],
        documents: [
          {
            key: 'lease',
            file_b64: await aPdfB64(),
            fields: [{ key: 'sig', kind: 'sig', page: 1, x: 10, y: 70, w: 30, h: 6, editors: ['eve'] }],
          },
        ],
      },
    });
    expect(created.status, created.text).toBe(201);
    const token = (await call('POST', `/packets/${created.body.packets[0].id}/embed_url/`)).body.url
      .split('/')
      .pop();
    const session = await signWithToken(sign, token, 'lease', ['sig']);
    await docsReady(call, created.body.id);
    // Sealed, yet an embedded device may be someone else's: no links; and the sender suppressed the message.
    expect((await sign('GET', '/state', session)).body.signed_copies).toEqual({
      by_message: false,
      copies: null,
    });
  });
});
