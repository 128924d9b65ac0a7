import { aPdf } from './pdfs';

/** A three-page PDF with text to auto-place on, as base64. */
export const aPdfB64 = async () =>
  Buffer.from(
    await aPdf({
      pages: [
        { size: 'Letter', text: [{ value: 'Welcome', x: 72, y: 700, size: 14 }] },
        { size: 'A4', text: [{ value: 'Sign here', x: 100, y: 200, size: 12 }] },
        { size: [400, 300] },
      ],
    }),
  ).toString('base64');

/** A create-bundle body with two signers and one document; override any part. */
/** A bundle for Ann alone, signing embedded (in the sender's app), with one signature field `sig`. */
export const anEmbeddedBundle = (b64: string) =>
  aBundle(
    {
      packets: [{ key: 'ann', name: 'Ann Lee', email: 'ann@example.com', deliver_via: 'embed' }],
      documents: [
        {
          key: 'lease',
          file_b64: b64,
          fields: [{ key: 'sig', kind: 'sig', page: 1, x: 10, y: 70, w: 30, h: 5, editors: ['ann'] }],
        },
      ],
    },
    b64,
  );

export function aBundle(overrides: Record<string, unknown>, b64: string) {
  return {
    label: 'Lease',
    packets: [
      { key: 'ann', name: 'Ann Lee', email: 'ann@example.com' },
      { key: 'bob', name: 'Bob Roe', phone: '+1 555 010 3000', deliver_via: 'phone' },
    ],
    documents: [
      {
        key: 'lease',
        file_b64: b64,
        fields: [{ kind: 'sig', page: 1, x: 10, y: 70, w: 30, h: 5, editors: ['ann'] }],
      },
    ],
    ...overrides,
  };
}
