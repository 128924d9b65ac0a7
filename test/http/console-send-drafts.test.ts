// The Send screen's create requests as the real API takes them: what the screen builds for
// uploads (multipart, `files[N]`), a document template (its roles given to the signers) and an
// envelope template (its roles filled by key) each makes a draft the API answers as such.
import { beforeAll, describe, expect, it } from 'vitest';
import { draftRequest, type TDraftForm, type TSigner } from '#functions/console-app/web/send-draft';
import type { TRuntime } from '#infra/local/runtime';
import { aPdfB64 } from '../helpers/bundles';
import { apiClient } from '../helpers/runtime';
import { sharedTestRuntime } from '../helpers/shared-runtime';

let runtime: TRuntime;
let call: ReturnType<typeof apiClient>;
let pdfB64: string;
beforeAll(async () => {
  runtime = await sharedTestRuntime();
  call = apiClient(runtime);
  pdfB64 = await aPdfB64();
});

const ROLES = [
  { key: 'buyer', label: 'Buyer' },
  { key: 'seller', label: 'Seller' },
];

const signers = (withRoles: boolean): TSigner[] =>
  [
    { name: 'Ann Buyer', email: 'ann@example.com', phone: '' },
    { name: 'Bo Seller', email: '', phone: '+1 555 0100' },
  ].map((s, i) => ({
    uid: i + 1,
    ...s,
    language: i === 1 ? 'fr' : '',
    authSms: i === 1,
    authSelfie: false,
    authId: false,
    ...(withRoles ? { role: ROLES[i] } : {}),
  }));

const form = (over: Partial<TDraftForm>): TDraftForm => ({
  source: 'upload',
  uploads: [],
  templateId: '',
  envelopeId: '',
  signers: signers(false),
  inOrder: true,
  label: 'Sale',
  emailSubject: 'Please sign',
  emailMessage: '',
  ...over,
});

const draftOf = (answer: { status: number; text: string; body: Record<string, unknown> }) => {
  expect(answer.status, answer.text).toBe(201);
  expect(answer.body).toMatchObject({ status: 'dr', label: 'Sale', email_subject: 'Please sign' });
  return answer.body as {
    in_order: boolean;
    packets: { name: string; auth_sms: boolean }[];
    documents: { name: string }[];
  };
};

describe('the drafts the Send screen creates', () => {
  it('uploads files as files[N] parts, in the order chosen', async () => {
    const files = ['cover.pdf', 'lease.pdf'].map((name) => ({
      file: new File([Buffer.from(pdfB64, 'base64')], name),
    }));
    const body = new FormData();
    body.append(
      'bundle_request',
      JSON.stringify(draftRequest(form({ uploads: files.map((f, i) => ({ uid: i, ...f })) }))),
    );
    for (const [i, f] of files.entries()) body.append(`files[${i}]`, f.file, f.file.name);
    const res = await fetch(`${runtime.apiUrl}bundles/`, {
      method: 'POST',
      headers: { authorization: `Token ${runtime.demo.apiKey}` },
      body,
    });
    const draft = draftOf({
      status: res.status,
      text: '',
      body: (await res.json()) as Record<string, unknown>,
    });
    expect(draft.documents.map((d) => d.name)).toEqual(['cover.pdf', 'lease.pdf']);
    expect(draft.packets.map((p) => [p.name, p.auth_sms])).toEqual([
      ['Ann Buyer', false],
      ['Bo Seller', true],
    ]);
  });

  it('gives a document template’s roles to the signers, and fills an envelope template’s', async () => {
    const template = await call('POST', '/templates/', {
      json: {
        name: 'Sale agreement',
        file_b64: pdfB64,
        roles: ROLES,
        fields: ROLES.map((r, i) => ({
          key: `sig-${r.key}`,
          kind: 'sig',
          page: 1,
          x: 10,
          y: 60 + i * 10,
          w: 30,
          h: 5,
          editor_roles: [r.key],
        })),
      },
    });
    expect(template.status, template.text).toBe(201);
    const fromTemplate = draftOf(
      await call('POST', '/bundles/', {
        json: draftRequest(
          form({ source: 'template', templateId: template.body.id, signers: signers(true) }),
        ),
      }),
    );
    expect(fromTemplate.packets.map((p) => p.name)).toEqual(['Ann Buyer', 'Bo Seller']);

    const envelope = await call('POST', '/envelope-templates/', {
      json: {
        name: 'Sale envelope',
        documents: [{ key: 'sale', template_id: template.body.id }],
        signers: ROLES.map((r, i) => ({ ...r, order: i + 1, auth_sms: i === 1 })),
        in_order: true,
      },
    });
    expect(envelope.status, envelope.text).toBe(201);
    const fromEnvelope = draftOf(
      await call('POST', '/bundles/', {
        // The screen shows no order for an envelope template: its own holds.
        json: draftRequest(
          form({ source: 'envelope', envelopeId: envelope.body.id, signers: signers(true), inOrder: false }),
        ),
      }),
    );
    expect(fromEnvelope.in_order).toBe(true);
    expect(fromEnvelope.packets.map((p) => [p.name, p.auth_sms])).toEqual([
      ['Ann Buyer', false],
      ['Bo Seller', true],
    ]);
  });
});
