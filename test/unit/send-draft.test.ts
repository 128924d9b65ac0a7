// The Send screen's logic apart from the browser: the create request a draft form becomes, which
// files it takes before anything is uploaded (the API's own limits), where the API's errors show,
// which messages from the editor it heeds, and the console's policy that lets it frame the editor.
import { describe, expect, it } from 'vitest';
import { consoleHeaders } from '#functions/console-app/serve';
import { editorMessage } from '#functions/console-app/web/editor-messages';
import {
  draftRequest,
  fileProblem,
  moved,
  placeErrors,
  type TDraftForm,
  type TSigner,
  UPLOAD_LIMITS,
} from '#functions/console-app/web/send-draft';
import type { TConfig } from '#shared/config';
import { BUNDLE_LIMITS } from '#shared/schemas/bundle-request';

const signer = (uid: number, over: Partial<TSigner> = {}): TSigner => ({
  uid,
  name: '',
  email: '',
  phone: '',
  language: '',
  authSms: false,
  authSelfie: false,
  authId: false,
  ...over,
});

const aFile = (name: string, size = 10, type = 'application/pdf') =>
  ({ name, size, type }) as unknown as File;

const form = (over: Partial<TDraftForm> = {}): TDraftForm => ({
  source: 'upload',
  uploads: [
    { uid: 7, file: aFile('a.pdf') },
    { uid: 8, file: aFile('b.png', 10, 'image/png') },
  ],
  templateId: '',
  envelopeId: '',
  signers: [
    signer(3, { name: ' Ann ', email: 'ann@example.com', personId: 'p-1' }),
    signer(4, { name: 'Bo', phone: '+1 555', authSms: true, language: 'es' }),
  ],
  inOrder: true,
  label: 'Lease',
  emailSubject: '',
  emailMessage: '',
  ...over,
});

describe('the draft’s create request', () => {
  it('sends uploads as files[N] in their order, signers with their checks, as a draft', () => {
    expect(draftRequest(form())).toEqual({
      status: 'dr',
      label: 'Lease',
      in_order: true,
      packets: [
        { key: 'signer-1', name: 'Ann', email: 'ann@example.com', person_id: 'p-1' },
        { key: 'signer-2', name: 'Bo', phone: '+1 555', language: 'es', auth_sms: true },
      ],
      documents: [
        { key: 'doc-1', name: 'a.pdf', file_index: 0 },
        { key: 'doc-2', name: 'b.png', file_index: 1 },
      ],
    });
  });

  it('sends a packet role other than signer, and a PDF’s form fields to the first who signs', () => {
    const signers = [signer(3, { name: 'Ann', acts: 'approver' }), signer(4, { name: 'Bo', acts: 'signer' })];
    const uploads = [{ uid: 7, file: aFile('a.pdf'), formFields: true }];
    const request = draftRequest(form({ signers, uploads }));
    expect(request.packets).toEqual([
      { key: 'signer-1', name: 'Ann', role: 'approver' },
      { key: 'signer-2', name: 'Bo' },
    ]);
    expect(request.documents).toEqual([
      {
        key: 'doc-1',
        name: 'a.pdf',
        file_index: 0,
        form_fields: true,
        form_field_editors: { '*': 'signer-2' },
      },
    ]);
    // The only signer gets them without being named; an error about a role shows beside its choice.
    expect(draftRequest(form({ signers: [signers[1]!], uploads })).documents).toEqual([
      { key: 'doc-1', name: 'a.pdf', file_index: 0, form_fields: true },
    ]);
    expect(placeErrors({ 'packets[0].role': 'No.' }, form({ signers })).beside).toEqual({
      'signer-3-acts': 'No.',
    });
  });

  it('gives a document template’s roles to the signers and fills an envelope template’s by key', () => {
    const roles = [
      { key: 'buyer', label: 'Buyer' },
      { key: 'seller', label: 'Seller' },
    ];
    const signers = form().signers.map((s, i) => ({ ...s, role: roles[i] }));
    expect(draftRequest(form({ source: 'template', templateId: 't-1', signers })).documents).toEqual([
      {
        template_id: 't-1',
        assignments: [
          { role: 'buyer', signer: 'buyer' },
          { role: 'seller', signer: 'seller' },
        ],
      },
    ]);
    const envelope = draftRequest(form({ source: 'envelope', envelopeId: 'env-1', signers }));
    expect(envelope.envelope_template).toEqual({ template_id: 'env-1' });
    // Whether its signers sign in order is the template's to say.
    expect(envelope).not.toHaveProperty('in_order');
    expect(envelope.documents).toBeUndefined();
    // The envelope template's roles decide the checks; the request carries only who signs.
    expect(envelope.packets).toEqual([
      { key: 'buyer', name: 'Ann', email: 'ann@example.com' },
      { key: 'seller', name: 'Bo', phone: '+1 555', language: 'es' },
    ]);
  });
});

describe('field values for a template', () => {
  const values = [
    { uid: 1, name: ' Monthly rent ', value: '1450' },
    { uid: 2, name: '', value: 'left out: no name' },
    { uid: 3, name: 'pet', value: '' },
  ];
  it('go as the bundle’s data by name, for templates only; an error on data.<name> goes beside its row', () => {
    const withValues = (source: 'upload' | 'template' | 'envelope') =>
      draftRequest(form({ source, templateId: 't-1', envelopeId: 'env-1', values }));
    const data = { 'Monthly rent': '1450', pet: '' };
    expect(withValues('template').data).toEqual(data);
    expect(withValues('envelope').data).toEqual(data);
    expect(withValues('upload')).not.toHaveProperty('data');
    expect(draftRequest(form({ source: 'template', templateId: 't-1' }))).not.toHaveProperty('data');
    const placed = placeErrors(
      {
        'data.Monthly rent': 'Enter a valid number.',
        'data.gone': 'No field has the key or the label "gone".',
      },
      form({ source: 'template', values }),
    );
    expect(placed.beside).toEqual({
      'send-value-1-name': 'Enter a valid number.',
      'send-values': 'No field has the key or the label "gone".',
    });
  });
});

describe('the files the screen takes', () => {
  it('holds the API’s own limits', () => {
    expect(UPLOAD_LIMITS.documents).toBe(BUNDLE_LIMITS.documents);
    expect(UPLOAD_LIMITS.requestBytes).toBe(BUNDLE_LIMITS.requestBytes);
  });

  it('takes PDFs, JPEGs and PNGs within the request’s size, and no more than 20', () => {
    expect(fileProblem({ name: 'a.pdf', type: 'application/pdf', size: 1000 }, [])).toBeUndefined();
    expect(fileProblem({ name: 'scan.JPG', type: '', size: 1000 }, [])).toBeUndefined();
    expect(fileProblem({ name: 'notes.txt', type: 'text/plain', size: 10 }, [])).toBe('type');
    expect(fileProblem({ name: 'fake.pdf', type: 'text/html', size: 10 }, [])).toBe('type');
    const big = UPLOAD_LIMITS.requestBytes - UPLOAD_LIMITS.reserveBytes;
    expect(fileProblem({ name: 'a.pdf', type: 'application/pdf', size: big }, [])).toBeUndefined();
    expect(fileProblem({ name: 'a.pdf', type: 'application/pdf', size: big }, [{ size: 1 }])).toBe('size');
    const twenty = Array.from({ length: 20 }, () => ({ size: 1 }));
    expect(fileProblem({ name: 'a.pdf', type: 'application/pdf', size: 1 }, twenty)).toBe('count');
  });

  it('moves an item up or down, and leaves the ends as they are', () => {
    expect(moved(['a', 'b', 'c'], 2, -1)).toEqual(['a', 'c', 'b']);
    expect(moved(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
    expect(moved(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
  });
});

describe('the API’s errors on the screen', () => {
  it('shows each beside the input it names, and the rest above the button', () => {
    const placed = placeErrors(
      {
        'packets[1].email': 'Enter a valid email address.',
        'packets[1].phone': 'A phone is required for SMS pin authentication.',
        'documents[1].file_index': 'Not a PDF.',
        label: 'Too long.',
        documents: 'A bundle needs at least one document.',
        cc_emails: 'Bad.',
        '': 'Request body too large.',
      },
      form(),
    );
    expect(placed.beside).toEqual({
      'signer-4-email': 'Enter a valid email address.',
      'signer-4-phone': 'A phone is required for SMS pin authentication.',
      'send-doc-8': 'Not a PDF.',
      'send-label': 'Too long.',
      'send-files': 'A bundle needs at least one document.',
    });
    expect(placed.rest).toEqual(['Bad.', 'Request body too large.']);
    expect(
      placeErrors({ 'envelope_template.template_id': 'No.' }, form({ source: 'envelope' })).beside,
    ).toEqual({
      'send-template': 'No.',
    });
  });
});

describe('the editor’s messages', () => {
  it('heeds only the editor’s own events about this bundle', () => {
    const m = { source: 'esign-editor', event: 'sent', bundle_id: 'b1' };
    expect(editorMessage(m, 'b1')).toEqual(m);
    expect(editorMessage({ ...m, bundle_id: 'b2' }, 'b1')).toBeUndefined();
    expect(editorMessage({ ...m, source: 'other' }, 'b1')).toBeUndefined();
    expect(editorMessage({ ...m, event: 'deleted' }, 'b1')).toBeUndefined();
    expect(editorMessage('sent', 'b1')).toBeUndefined();
  });
});

describe('the console’s policy', () => {
  it('lets the console frame the service’s own pages (the editor) and nothing else', () => {
    const csp = consoleHeaders({ endpoints: {} } as unknown as TConfig)['Content-Security-Policy']!;
    expect(csp).toContain("frame-src 'self';");
    expect(csp).toContain("frame-ancestors 'none'");
  });
});
