// Builders for the evidence renderers' inputs, and a drawn signature as a real PNG.

import { PageSizes, PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import type { TAuditPage, TCertificateInput, TStampField } from '#shared/pdf/evidence-types';
import { encodePng } from './images';

export const aField = (overrides: Partial<TStampField> = {}): TStampField => ({
  page: 1,
  x: 10,
  y: 10,
  w: 30,
  h: 4,
  kind: 'inp',
  value: 'value',
  format: '',
  ...overrides,
});

export const anAuditPage = (overrides: Partial<TAuditPage> = {}): TAuditPage => ({
  bundleId: 'Xk3pQ9rT2w',
  label: 'Consulting Services Agreement',
  documentName: 'consulting-agreement.pdf',
  originalSha256: '3f8a1c9e5b7d2f4a6c8e0b1d3f5a7c9e1b3d5f7a9c1e3b5d7f9a1c3e5b7d9f1a',
  signers: [
    {
      name: 'Zoë Ørsted',
      email: 'zoe@example.com',
      phone: '+1 415 555 0142',
      completedAt: '2025-03-07T14:05:09Z',
    },
    { name: 'Daniel Okafor', email: 'daniel.okafor@example.org', completedAt: '2025-03-07T16:22:41Z' },
  ],
  events: [
    { timestamp: '2025-03-07T09:00:02Z', description: 'Bundle created', actor: 'sender', ip: '198.51.100.7' },
    {
      timestamp: '2025-03-07T09:00:03Z',
      description: 'Signing request sent to Zoë Ørsted by email',
      actor: 'service',
    },
    {
      timestamp: '2025-03-07T13:58:12Z',
      description: 'Zoë Ørsted opened the documents',
      actor: 'Zoë Ørsted',
      ip: '203.0.113.24',
    },
    {
      timestamp: '2025-03-07T14:05:09Z',
      description: 'Zoë Ørsted signed',
      actor: 'Zoë Ørsted',
      ip: '203.0.113.24',
    },
    {
      timestamp: '2025-03-07T16:22:41Z',
      description: 'Daniel Okafor signed',
      actor: 'Daniel Okafor',
      ip: '192.0.2.181',
    },
    { timestamp: '2025-03-07T16:22:42Z', description: 'Bundle completed', actor: 'service' },
  ],
  chainHead: '9c2e4b6a8d0f1e3c5a7b9d1f3e5c7a9b0d2f4e6c8a0b2d4f6e8c0a2b4d6f8e0c',
  completedAt: '2025-03-07T16:22:42Z',
  sealedBy: 'Open eSignature service seal',
  ...overrides,
});

export const aCertificateInput = (overrides: Partial<TCertificateInput> = {}): TCertificateInput => ({
  bundleId: 'Xk3pQ9rT2w',
  label: 'Consulting Services Agreement',
  signer: {
    name: 'Zoë Ørsted',
    email: 'zoe@example.com',
    phone: '+1 415 555 0142',
    packetId: 'Pq7Rz2Lm4n',
    key: 'client',
  },
  auth: [
    {
      method: 'SMS code',
      result: 'passed',
      at: '2025-03-07T13:59:40Z',
      detail: 'Code sent to +1 415 555 0142',
    },
    { method: 'Selfie', result: 'collected', at: '2025-03-07T14:01:02Z', detail: '1 image kept as evidence' },
  ],
  times: {
    sent: '2025-03-07T09:00:03Z',
    viewed: '2025-03-07T13:58:12Z',
    consented: '2025-03-07T13:58:30Z',
    signed: '2025-03-07T14:05:09Z',
  },
  steps: [
    {
      action: 'opened',
      at: '2025-03-07T13:58:12Z',
      ip: '203.0.113.24',
      userAgent:
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_3 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.3 Mobile/15E148 Safari/604.1',
    },
    {
      action: 'signed',
      at: '2025-03-07T14:05:09Z',
      ip: '203.0.113.24',
      userAgent:
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_3 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.3 Mobile/15E148 Safari/604.1',
    },
  ],
  documents: [
    {
      name: 'consulting-agreement.pdf',
      key: 'agreement',
      originalSha256: '3f8a1c9e5b7d2f4a6c8e0b1d3f5a7c9e1b3d5f7a9c1e3b5d7f9a1c3e5b7d9f1a',
      finalSha256: 'b41d7e2c9a0f8e6d4c2b0a9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b2a1f0e9d',
    },
  ],
  signatureImages: [
    { label: 'Signature', image: aSignaturePng() },
    { label: 'Initials', typed: 'ZØ' },
  ],
  events: anAuditPage().events.filter((e) => e.actor === 'Zoë Ørsted'),
  chainHead: '9c2e4b6a8d0f1e3c5a7b9d1f3e5c7a9b0d2f4e6c8a0b2d4f6e8c0a2b4d6f8e0c',
  isTest: false,
  issuedAt: '2025-03-07T16:22:43Z',
  sealedBy: 'Open eSignature service seal',
  ...overrides,
});

/**
 * A drawn signature as signature_pad leaves it: dark strokes on a transparent background (an
 * RGBA PNG). The strokes are a few loops and a flourish, thick enough to see at 60 dpi.
 */
export function aSignaturePng(width = 360, height = 120): Uint8Array {
  const rgba = Buffer.alloc(width * height * 4);
  const dot = (cx: number, cy: number, r: number) => {
    for (let y = Math.floor(cy - r); y <= cy + r; y++) {
      for (let x = Math.floor(cx - r); x <= cx + r; x++) {
        if (x < 0 || y < 0 || x >= width || y >= height || (x - cx) ** 2 + (y - cy) ** 2 > r * r) continue;
        rgba.set([20, 30, 90, 255], (y * width + x) * 4);
      }
    }
  };
  for (let t = 0; t <= 1; t += 0.0008) {
    const x = 20 + t * (width - 60);
    const y = height / 2 + Math.sin(t * Math.PI * 7) * (height / 4) * (1 - t * 0.5) + Math.cos(t * 23) * 6;
    dot(x, y, 2.2);
  }
  for (let t = 0; t <= 1; t += 0.002) dot(40 + t * (width - 80), height * 0.82 - t * 10, 1.6);
  const raw = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y++)
    rgba.copy(raw, y * (width * 4 + 1) + 1, y * width * 4, (y + 1) * width * 4);
  return encodePng(width, height, 6, raw);
}

export interface TFormSpot {
  field: Omit<TStampField, 'value'>;
  label: string;
  /** 'line': a rule under the box; 'box': a frame around it. */
  look: 'line' | 'box';
}

/** Where the contract of aContractPdf has room for each value (percent geometry, as fields have). */
export const CONTRACT_SPOTS: Record<string, TFormSpot> = {
  name: {
    label: 'Client name',
    look: 'line',
    field: { page: 1, x: 27, y: 47, w: 46, h: 2.6, kind: 'inp', format: '' },
  },
  company: {
    label: 'Company',
    look: 'line',
    field: { page: 1, x: 27, y: 51, w: 46, h: 2.6, kind: 'inp', format: '' },
  },
  scope: {
    label: 'Scope of work',
    look: 'box',
    field: { page: 1, x: 27, y: 55, w: 63, h: 7.5, kind: 'txt', format: '' },
  },
  start: {
    label: 'Start date',
    look: 'line',
    field: { page: 1, x: 27, y: 64.5, w: 22, h: 2.6, kind: 'dat', format: 'MM/DD/YYYY' },
  },
  billing: {
    label: 'Billing',
    look: 'line',
    field: { page: 1, x: 68, y: 64.5, w: 22, h: 2.6, kind: 'sel', format: 'Monthly|Quarterly' },
  },
  services: {
    label: 'Services',
    look: 'line',
    field: { page: 1, x: 27, y: 68.5, w: 63, h: 2.6, kind: 'cbg', format: 'Audit|Advisory|Training' },
  },
  agree: {
    label: 'I have read and agree to the terms above',
    look: 'box',
    field: { page: 1, x: 10, y: 72.6, w: 2.2, h: 1.6, kind: 'chk', format: '' },
  },
  signature: {
    label: 'Signature',
    look: 'line',
    field: { page: 1, x: 27, y: 76, w: 40, h: 6.5, kind: 'sig', format: '' },
  },
  signedBy: {
    label: 'Signed by',
    look: 'line',
    field: { page: 1, x: 27, y: 84, w: 40, h: 2.6, kind: 'snm', format: '' },
  },
  signedOn: {
    label: 'Date signed',
    look: 'line',
    field: { page: 1, x: 27, y: 88, w: 25, h: 2.6, kind: 'sdt', format: '' },
  },
  initials1: {
    label: 'Initials',
    look: 'line',
    field: { page: 1, x: 80, y: 93, w: 10, h: 3.5, kind: 'ini', format: '' },
  },
  initials2: {
    label: 'Initials',
    look: 'line',
    field: { page: 2, x: 80, y: 93, w: 10, h: 3.5, kind: 'ini', format: '' },
  },
};

const CLAUSES = [
  '1. Services. The Consultant shall provide the services described below (the "Services") with the skill and care of a professional consultant, in accordance with this Agreement and any statement of work the parties sign.',
  '2. Fees. The Client shall pay the fees set out in the applicable statement of work within thirty (30) days of receiving each invoice. Late amounts bear interest at one percent (1%) per month.',
  "3. Confidentiality. Each party shall keep the other party's confidential information secret and use it only to perform this Agreement, during its term and for five (5) years after.",
  "4. Term. This Agreement begins on the start date below and continues until either party ends it with thirty (30) days' written notice to the other.",
];

/** A two-page A4 contract made with pdf-lib, with labels and rules where CONTRACT_SPOTS are. */
export async function aContractPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const serif = await doc.embedFont(StandardFonts.TimesRoman);
  const bold = await doc.embedFont(StandardFonts.TimesRomanBold);
  const pages = [doc.addPage(PageSizes.A4), doc.addPage(PageSizes.A4)];
  const [W, H] = PageSizes.A4;
  const wrap = (text: string, size: number, width: number) => {
    const lines: string[] = [];
    let line = '';
    for (const word of text.split(' ')) {
      const next = line ? `${line} ${word}` : word;
      if (serif.widthOfTextAtSize(next, size) > width && line) {
        lines.push(line);
        line = word;
      } else line = next;
    }
    return [...lines, line];
  };
  for (const [i, page] of pages.entries()) {
    page.drawText('CONSULTING SERVICES AGREEMENT', { x: 72, y: H - 80, size: 15, font: bold });
    page.drawText(`Page ${i + 1} of 2`, { x: 72, y: 40, size: 9, font: serif, color: rgb(0.3, 0.3, 0.3) });
    let y = H - 115;
    const clauses = i === 0 ? CLAUSES : [...CLAUSES].reverse().map((c) => c.replace(/^\d\./, '•'));
    for (const clause of clauses) {
      for (const line of wrap(clause, 10.5, W - 144)) {
        page.drawText(line, { x: 72, y, size: 10.5, font: serif });
        y -= 14;
      }
      y -= 8;
    }
  }
  for (const { label, look, field } of Object.values(CONTRACT_SPOTS)) {
    const page = pages[field.page - 1]!;
    const x = (field.x / 100) * W;
    const top = H - (field.y / 100) * H;
    const w = (field.w / 100) * W;
    const h = (field.h / 100) * H;
    if (look === 'line') {
      page.drawLine({ start: { x, y: top - h }, end: { x: x + w, y: top - h }, thickness: 0.6 });
      page.drawText(`${label}:`, {
        x: x - serif.widthOfTextAtSize(`${label}:`, 10) - 8,
        y: top - h + 3,
        size: 10,
        font: serif,
      });
    } else {
      page.drawRectangle({ x, y: top - h, width: w, height: h, borderWidth: 0.6, borderColor: rgb(0, 0, 0) });
      if (field.kind === 'chk') page.drawText(label, { x: x + w + 6, y: top - h + 2, size: 10, font: serif });
      else
        page.drawText(`${label}:`, {
          x: x - serif.widthOfTextAtSize(`${label}:`, 10) - 8,
          y: top - 12,
          size: 10,
          font: serif,
        });
    }
  }
  return doc.save();
}

/** Values for every spot of the contract, as a signer would leave them. */
export function contractFields(
  values: Partial<Record<keyof typeof CONTRACT_SPOTS, Partial<TStampField>>> = {},
): TStampField[] {
  const defaults: Record<string, Partial<TStampField>> = {
    name: { value: 'Zoë Ørsted — Ĳssel' },
    company: { value: 'Ørsted & Søn Consulting ApS' },
    scope: {
      value:
        'Quarterly review of the internal controls over financial reporting, with a written report to the audit committee after each review, and two training days a year for the finance team.',
    },
    start: { value: '2025-04-01' },
    billing: { value: 'Quarterly' },
    services: { value: 'Audit|Training' },
    agree: { value: 'true' },
    signature: { value: 'drawn', image: aSignaturePng() },
    signedBy: { value: 'Zoë Ørsted' },
    signedOn: { value: '2025-03-07' },
    initials1: { value: 'typed:ZØ' },
    initials2: { value: 'typed:ZØ' },
  };
  return Object.entries(CONTRACT_SPOTS).map(([key, spot]) => ({
    ...spot.field,
    value: '',
    ...defaults[key],
    ...values[key],
  }));
}
