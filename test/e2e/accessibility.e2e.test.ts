// WCAG 2.2 AA, measured: axe-core (test/helpers/axe.ts) runs in a real headless Chromium on every
// public page in each state a person meets — the signing page at each identity step, every field
// kind's dialog, errors shown, finishing, done, declined, expired and cancelled, the payment step
// and the test checkout, the portal form, the verify page empty and with a verdict, template
// preparation, and the pages that only say something; in Arabic and on a phone too — and finds
// nothing (the check is first shown to find what a broken page has). Then a whole bundle is signed
// with the keyboard alone, names and live regions are read as a screen reader would hear them,
// and a light brand colour is shown adjusted to stay readable. Screenshots go to test-artifacts/.
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAccountStore } from '#shared/adapters/dynamodb/account-store';
import { createBundleStore } from '#shared/adapters/dynamodb/bundle-store';
import { brandPalette, contrastRatio } from '#shared/domain/accounts/brand-palette';
import { axeViolations, describeViolations, expectAccessible } from '../helpers/axe';
import { runBrowser, shot } from '../helpers/browser';
import { browserSuite } from '../helpers/browser-suite';
import { signerPage } from '../helpers/signing-pages';

const suite = browserSuite({
  pdf: [
    {
      size: 'Letter',
      text: [
        { value: 'Equipment loan agreement', x: 72, y: 720, size: 20 },
        { value: 'Borrower name:', x: 72, y: 672, size: 11 },
        { value: 'Signature:', x: 72, y: 265, size: 11 },
      ],
    },
  ],
  browserArgs: ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'],
});

/** The smallest PNG: one pixel. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

type TField = Record<string, unknown> & { key: string; kind: string };

/** Every kind of field a signer fills, all theirs, laid out down the first page. */
function everyKind(editor: string): TField[] {
  const at = (i: number) => ({ page: 1, x: 40, y: 8 + i * 7, w: 40, h: 4, editors: [editor] });
  return [
    { key: 'name', kind: 'inp', label: 'Full name', required: true, ...at(0) },
    { key: 'email', kind: 'inp', label: 'Email', v_pattern: 'email', ...at(1) },
    { key: 'start', kind: 'dat', label: 'Start date', required: true, ...at(2) },
    { key: 'plan', kind: 'sel', label: 'Plan', required: true, format: 'Monthly|Yearly', ...at(3) },
    { key: 'agree', kind: 'chk', label: 'I agree to the terms', required: true, ...at(4), w: 3, h: 2 },
    { key: 'extras', kind: 'cbg', label: 'Extras', required: true, format: 'Case|Charger', ...at(5) },
    { key: 'rules', kind: 'apr', label: 'I approve the rules', required: true, ...at(6), w: 3, h: 2 },
    { key: 'notes', kind: 'txt', label: 'Notes', ...at(7), h: 8 },
    { key: 'sig', kind: 'sig', label: 'Borrower signature', required: true, ...at(9), h: 7 },
    { key: 'ini', kind: 'ini', label: 'Borrower initials', required: true, ...at(10), w: 14, h: 5 },
    { key: 'signed_name', kind: 'snm', label: 'Printed name', ...at(11) },
    { key: 'signed_on', kind: 'sdt', label: 'Date signed', ...at(12) },
    {
      key: 'proof',
      kind: 'att',
      label: 'Proof of address',
      required: true,
      v_attachment_types: ['pdf', 'png'],
      ...at(0),
      x: 0,
      y: 0,
      w: 1,
      h: 1,
    },
  ];
}

/** A sent bundle with one signer (`packet`) and `fields` of theirs; answers its id and packet id. */
async function aSentBundle(
  label: string,
  packet: Record<string, unknown> & { key: string },
  fields: TField[],
  extra: Record<string, unknown> = {},
) {
  const sent = await suite.sentBundle({ label, packets: [packet], document: 'doc', fields, ...extra });
  return { id: sent.id, packetId: sent.packets[0]!.id };
}

const aSignature = (editor: string): TField[] => [
  {
    key: 'sig',
    kind: 'sig',
    label: 'Signature',
    required: true,
    page: 1,
    x: 11,
    y: 68,
    w: 30,
    h: 7,
    editors: [editor],
  },
];

/** Opens the signing page from the emailed link and waits for the documents. */
async function openDocuments(email: string, label: string) {
  const signer = await signerPage(suite.browser);
  await signer.page.goto(await suite.inbox.emailedLink(email));
  await signer.page.getByRole('heading', { name: label }).waitFor();
  await signer.page.locator('.page.rendered').first().waitFor();
  return signer;
}

/** A stroke across the drawing pad, as a finger or a mouse makes it. */
async function drawOnPad(page: Page) {
  const box = (await page.locator('canvas.pad').boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.1, box.y + box.height * 0.6);
  await page.mouse.down();
  for (let i = 1; i <= 12; i++)
    await page.mouse.move(
      box.x + box.width * (0.1 + 0.06 * i),
      box.y + box.height * (0.6 - 0.2 * Math.sin(i / 2)),
    );
  await page.mouse.up();
}

describe.runIf(runBrowser)('the axe check itself', () => {
  it('finds and names violations on a page that has them', async () => {
    const { page, context } = await signerPage(suite.browser);
    await page.setContent(
      '<!doctype html><html lang="en"><title>Broken</title><main><button id="mute"></button>' +
        '<p style="color:#aaa;background:#fff">Pale words</p></main></html>',
    );
    const found = await axeViolations(page);
    expect(found.map((v) => v.rule).sort()).toEqual(['button-name', 'color-contrast']);
    const lines = describeViolations(found);
    expect(
      lines.find((l) => l.startsWith('button-name (critical): Buttons must have discernible text — #mute')),
    ).toBeTruthy();
    await context.close();
  }, 30_000);
});

describe.runIf(runBrowser)('every public page and state passes axe (WCAG 2.2 AA)', () => {
  describe('signing: the SMS step, the documents, every field kind’s dialog, errors, finishing and done', () => {
    let page: Page;
    let context: BrowserContext;
    let problems: string[];

    it('the SMS step, before sending and with a wrong code', async () => {
      await aSentBundle(
        'Equipment loan',
        {
          key: 'ann',
          name: 'Ann Lee',
          email: 'ann.a11y@example.com',
          phone: '+1 555 010 7171',
          auth_sms: true,
        },
        everyKind('ann'),
      );
      ({ page, context, problems } = await signerPage(suite.browser));
      await page.goto(await suite.inbox.emailedLink('ann.a11y@example.com'));
      await page.getByRole('heading', { name: 'Confirm it’s you' }).waitFor();
      await expectAccessible(page, 'the SMS step, before sending');

      const seen = await suite.inbox.seen();
      await page.getByRole('button', { name: 'Text me a code' }).click();
      const code = await suite.inbox.textedCode('7171', seen);
      await page.getByLabel('The 6-digit code').fill('12');
      await page.getByRole('button', { name: 'Confirm' }).click();
      await page.getByText('Enter the 6 digits').waitFor();
      await expectAccessible(page, 'the SMS step with a wrong code');
      await page.getByLabel('The 6-digit code').fill(code);
      await page.getByRole('button', { name: 'Confirm' }).click();
    }, 60_000);

    it('the documents, and a field with its error', async () => {
      await page.getByRole('heading', { name: 'Equipment loan' }).waitFor();
      await page.locator('.page.rendered').first().waitFor();
      await expectAccessible(page, 'the documents, nothing filled');

      // A field's own error.
      await page.getByLabel('Email', { exact: true }).fill('ann@');
      await page.getByLabel('Email', { exact: true }).press('Tab');
      await page.getByText('Enter a valid email address.').waitFor();
      await expectAccessible(page, 'a field with its error shown');
      await page.getByLabel('Email', { exact: true }).fill('ann@example.com');
    }, 60_000);

    it('the choices, signature and initials dialogs, with their errors', async () => {
      // The choices dialog, with its error.
      await page.getByRole('button', { name: /^Extras/ }).click();
      const choices = page.getByRole('dialog', { name: 'Extras' });
      await choices.getByRole('button', { name: 'Done' }).click();
      await choices.getByText('Choose at least one option.').waitFor();
      await expectAccessible(page, 'the choices dialog with its error');
      await choices.getByLabel('Case').check();
      await choices.getByRole('button', { name: 'Done' }).click();
      await choices.waitFor({ state: 'detached' });

      // The signature dialog: drawing (empty, refused), then typing.
      await page.getByRole('button', { name: 'Borrower signature' }).click();
      const signature = page.getByRole('dialog', { name: 'Add your signature' });
      await signature.waitFor();
      await expectAccessible(page, 'the signature dialog, drawing');
      await signature.getByRole('button', { name: 'Apply signature' }).click();
      await signature.getByText('Draw your signature in the box, or choose Type.').waitFor();
      await expectAccessible(page, 'the signature dialog with its error');
      await drawOnPad(page);
      await expectAccessible(page, 'the signature dialog, drawn');
      await signature.getByRole('tab', { name: 'Type' }).click();
      await expectAccessible(page, 'the signature dialog, typing');
      await shot(page, 'a11y-1-signature-typed.png');
      await signature.getByRole('button', { name: 'Apply signature' }).click();
      await signature.waitFor({ state: 'detached' });

      await page.getByRole('button', { name: 'Borrower initials' }).click();
      const initials = page.getByRole('dialog', { name: 'Add your initials' });
      await initials.waitFor();
      await expectAccessible(page, 'the initials dialog');
      await initials.getByRole('tab', { name: 'Type' }).click();
      await initials.getByRole('button', { name: 'Apply initials' }).click();
      await initials.waitFor({ state: 'detached' });
    }, 60_000);

    it('an attachment refused, every field filled, the decline dialog with its error', async () => {
      // The attachment refused, then taken.
      const file = page.locator('.attachment input[type=file]');
      await file.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hi') });
      await page.getByText('Choose a file of type .pdf, .png.').waitFor();
      await expectAccessible(page, 'an attachment refused');
      await file.setInputFiles({ name: 'bill.png', mimeType: 'image/png', buffer: PNG });
      await page.locator('.attachment .file-name', { hasText: 'bill.png' }).waitFor();

      await page.getByLabel('Full name').fill('Ann Lee');
      await page.getByLabel('Start date').fill('2026-12-01');
      await page.getByLabel('Plan').selectOption('Yearly');
      await page.getByLabel('I agree to the terms').check();
      await page.getByLabel('I approve the rules').check();
      await page.getByLabel('Notes').fill('Handle with care.');
      await page.getByText('All changes saved').waitFor({ state: 'attached' });
      await expectAccessible(page, 'every field filled');

      // The decline dialog, opened and closed again.
      await page.getByRole('button', { name: 'Decline to sign' }).click();
      const decline = page.getByRole('dialog', { name: 'Decline to sign?' });
      await decline.getByRole('button', { name: 'Decline' }).click();
      await decline.getByText('Tell the sender why you decline.').waitFor();
      await expectAccessible(page, 'the decline dialog with its error');
      await page.keyboard.press('Escape');
      await decline.waitFor({ state: 'detached' });
    }, 60_000);

    it('finishing refused without the consent, then done', async () => {
      // Finishing without the consent, then with it.
      await page.getByRole('button', { name: 'Finish signing' }).click();
      await page.getByText('Tick the box to agree to sign electronically.').waitFor();
      await expectAccessible(page, 'finishing refused without the consent');
      await page.getByLabel(/I agree to sign these documents electronically/).check();
      await page.getByRole('button', { name: 'Finish signing' }).click();
      await page.getByRole('heading', { name: 'You’re done' }).waitFor();
      await expectAccessible(page, 'done');
      expect(problems).toEqual([]);
      await context.close();
    }, 60_000);
  });

  it('signing: the selfie and ID steps', async () => {
    await aSentBundle(
      'Car rental',
      { key: 'hal', name: 'Hal Ives', email: 'hal.a11y@example.com', auth_selfie: true, auth_id: true },
      aSignature('hal'),
    );
    const { page, context, problems } = await signerPage(suite.browser);
    await page.goto(await suite.inbox.emailedLink('hal.a11y@example.com'));
    await page.getByRole('heading', { name: 'A photo of you' }).waitFor();
    await expectAccessible(page, 'the selfie step');
    await page.getByRole('button', { name: 'Use my camera' }).click();
    await page.getByRole('button', { name: 'Take photo' }).waitFor();
    await expectAccessible(page, 'the selfie step with the camera on');
    await page.getByRole('button', { name: 'Take photo' }).click();
    await page.getByRole('heading', { name: 'Photos of your ID' }).waitFor();
    await expectAccessible(page, 'the ID step');
    await page.getByRole('button', { name: 'Send photos' }).click();
    await expectAccessible(page, 'the ID step, sent without photos');
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);

  it('signing: declined, expired and cancelled links, and a link that does not work', async () => {
    await aSentBundle(
      'Consulting agreement',
      { key: 'cy', name: 'Cy Dee', email: 'cy.a11y@example.com' },
      aSignature('cy'),
    );
    const cy = await openDocuments('cy.a11y@example.com', 'Consulting agreement');
    await cy.page.getByRole('button', { name: 'Decline to sign' }).click();
    const dialog = cy.page.getByRole('dialog', { name: 'Decline to sign?' });
    await dialog.getByLabel('Why are you declining?').fill('The fee is not what we agreed.');
    await dialog.getByRole('button', { name: 'Decline' }).click();
    await cy.page.getByRole('heading', { name: 'You declined to sign' }).waitFor();
    await expectAccessible(cy.page, 'declined');
    await cy.context.close();

    const late = await aSentBundle(
      'Late offer',
      { key: 'di', name: 'Di Eve', email: 'di.a11y@example.com' },
      aSignature('di'),
    );
    const link = await suite.inbox.emailedLink('di.a11y@example.com');
    const bundles = createBundleStore(suite.runtime.db, suite.runtime.config.tableName);
    const stored = (await bundles.get(suite.runtime.demo.accountId, late.id))!;
    await bundles.save(
      { ...stored, expires: new Date(Date.now() - 60_000).toISOString(), version: stored.version + 1 },
      stored,
    );
    const di = await signerPage(suite.browser);
    await di.page.goto(link);
    await di.page.getByRole('heading', { name: 'This signing request has expired' }).waitFor();
    await expectAccessible(di.page, 'expired');

    const gone = await aSentBundle(
      'Old offer',
      { key: 'ed', name: 'Ed Fay', email: 'ed.a11y@example.com' },
      aSignature('ed'),
    );
    const cancelledLink = await suite.inbox.emailedLink('ed.a11y@example.com');
    expect((await suite.call('PUT', `/bundles/${gone.id}/cancel/`)).status).toBe(200);
    await di.page.goto(cancelledLink);
    await di.page.getByRole('heading', { name: 'This signing request was cancelled' }).waitFor();
    await expectAccessible(di.page, 'cancelled');

    await di.page.goto(`${suite.runtime.baseUrl}/sign/${'x'.repeat(43)}`);
    await di.page.getByRole('heading', { name: 'This link does not work' }).waitFor();
    await expectAccessible(di.page, 'a signing link that does not work');
    await di.context.close();
  }, 120_000);

  it('the payment step and the test checkout', async () => {
    await createAccountStore(suite.runtime.db, suite.runtime.config.tableName).setPayout(
      suite.runtime.demo.accountId,
      {
        connectedAccountId: 'acct_1A11yPayee',
        currency: 'usd',
      },
    );
    await aSentBundle(
      'Storage rental',
      { key: 'ann', name: 'Ann Lee', email: 'ann.pay.a11y@example.com' },
      aSignature('ann'),
      {
        payment: { billed_to: 'ann', amount_due: 2500 },
      },
    );
    const { page, context } = await openDocuments('ann.pay.a11y@example.com', 'Storage rental');
    await page.getByText('$25.00 is due before you finish.').waitFor();
    await expectAccessible(page, 'the payment due');
    const opened = context.waitForEvent('page');
    await page.getByRole('button', { name: 'Pay $25.00' }).click();
    const checkout = await opened;
    await checkout.getByRole('heading', { name: 'Test checkout' }).waitFor();
    await expectAccessible(checkout, 'the test checkout');
    await checkout.getByRole('button', { name: 'Pay', exact: true }).click();
    await checkout.getByRole('heading', { name: 'Payment received' }).waitFor();
    await expectAccessible(checkout, 'the test checkout, paid');
    await checkout.close();
    await page.getByText('Paid: $25.00. Thank you.').waitFor({ timeout: 15_000 });
    await expectAccessible(page, 'the payment made');
    await context.close();
  }, 120_000);

  it('the portal form (empty, refused) and a portal link not in use', async () => {
    const envelope = await suite.portalWaiver({
      name: 'Climbing gym waiver',
      description: 'Sign before your first climb.',
      field: { required: true, page: 1, x: 11, y: 62, w: 32, h: 7 },
      visitor: { label: 'Visitor' },
    });
    const { page, context } = await signerPage(suite.browser);
    await page.goto(envelope.smart_link_url);
    await page.getByRole('heading', { name: 'Climbing gym waiver' }).waitFor();
    await expectAccessible(page, 'the portal form');
    await page.getByLabel('Your full name').fill('Pat Climber');
    await page.getByLabel('Your email').fill('pat@localhost');
    await page.getByRole('button', { name: 'Continue to sign' }).click();
    await page.getByText('Enter a valid email address.').waitFor();
    await expectAccessible(page, 'the portal form refused');

    expect((await suite.call('DELETE', `/envelope-templates/${envelope.id}`)).status).toBe(204);
    await page.goto(envelope.smart_link_url);
    await page.getByRole('heading', { name: 'This link is not in use' }).waitFor();
    await expectAccessible(page, 'a portal link not in use');
    await context.close();
  }, 60_000);

  it('the verify page, empty and with a verdict', async () => {
    const { page, context } = await signerPage(suite.browser);
    await page.goto(`${suite.runtime.baseUrl}/verify`);
    await page.getByRole('heading', { name: 'Is this document genuine?' }).waitFor();
    await expectAccessible(page, 'verify, empty');
    await page.getByLabel('PDF file').setInputFiles({
      name: 'some.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from(suite.pdfB64, 'base64'),
    });
    await page.getByRole('button', { name: 'Check the file' }).click();
    await page.getByText('This exact file was not sealed by this service.').waitFor();
    await expectAccessible(page, 'verify, with a verdict');
    await context.close();
  }, 60_000);

  it('signing in Arabic, right to left', async () => {
    await aSentBundle(
      'عقد إعارة المعدات',
      { key: 'ali', name: 'علي حسن', email: 'ali.a11y@example.com', language: 'ar' },
      everyKind('ali').filter((f) => ['name', 'start', 'agree', 'sig'].includes(f.key)),
    );
    const { page, context, problems } = await openDocuments('ali.a11y@example.com', 'عقد إعارة المعدات');
    expect(await page.locator('html').getAttribute('dir')).toBe('rtl');
    expect(await page.locator('html').getAttribute('lang')).toBe('ar');
    await expectAccessible(page, 'the documents in Arabic');
    await page.locator('.field.k-sig button').click();
    await page.getByRole('dialog').waitFor();
    await expectAccessible(page, 'the signature dialog in Arabic');
    await shot(page, 'a11y-3-arabic-signature-dialog.png');
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);

  it('signing on a phone (390 × 844, touch): the documents and the signature dialog', async () => {
    await aSentBundle(
      'Phone lease',
      { key: 'pia', name: 'Pia Moss', email: 'pia.a11y@example.com' },
      everyKind('pia').filter((f) => ['name', 'plan', 'agree', 'sig'].includes(f.key)),
    );
    const { page, context, problems } = await signerPage(suite.browser, {
      viewport: { width: 390, height: 844 },
      mobile: true,
    });
    await page.goto(await suite.inbox.emailedLink('pia.a11y@example.com'));
    await page.getByRole('heading', { name: 'Phone lease' }).waitFor();
    await page.locator('.page.rendered').first().waitFor();
    await expectAccessible(page, 'the documents on a phone');
    // On a phone a tap on the field brings its control into the sheet at the bottom of the screen.
    await page.locator('.field.k-sig').tap();
    await page.locator('.field-sheet .ctl').waitFor();
    await expectAccessible(page, 'the signature field in the sheet on a phone');
    await page.locator('.field-sheet .ctl').tap();
    await page.getByRole('dialog', { name: 'Add your signature' }).waitFor();
    await expectAccessible(page, 'the signature dialog on a phone');
    await shot(page, 'a11y-4-phone-signature-dialog.png');
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);

  it('template preparation, and a preparation link that does not work', async () => {
    const session = await suite.call('POST', '/templates/preparation_session/', {
      json: { name: 'Purchase agreement', file_b64: suite.pdfB64, roles: [{ key: 'buyer', label: 'Buyer' }] },
    });
    expect(session.status, session.text).toBe(201);
    const { page, context } = await signerPage(suite.browser);
    await page.goto(session.body.url);
    await page.getByRole('heading', { name: 'Prepare the template' }).waitFor();
    await page.locator('.page.rendered').first().waitFor();
    await expectAccessible(page, 'template preparation');
    await page.locator('#new-kind').selectOption('sig');
    await page.getByRole('button', { name: 'Add field to page 1' }).click();
    await page.locator('.prep-field').first().waitFor();
    await expectAccessible(page, 'template preparation with a field chosen');

    await page.goto(`${suite.runtime.baseUrl}/prepare/${'x'.repeat(43)}`);
    await page.getByRole('heading', { name: 'This link does not work' }).waitFor();
    await expectAccessible(page, 'a preparation link that does not work');
    await context.close();
  }, 60_000);
});

/** The element that has focus: its tag, id, aria-label and text. */
const focusedElement = (page: Page) =>
  page.evaluate<{ tag: string; id: string; label: string; text: string }>(`(() => {
    const a = document.activeElement;
    return {
      tag: a?.tagName.toLowerCase() ?? '',
      id: a?.id ?? '',
      label: a?.getAttribute('aria-label') ?? '',
      text: (a?.textContent ?? '').trim(),
    };
  })()`);

/** What has focus, as one word a person would say: its aria-label, else its text, else its id. */
async function focused(page: Page): Promise<string> {
  const f = await focusedElement(page);
  return f.label || f.text || f.id || f.tag;
}

/**
 * Presses `key` until the focused element is `name`; answers every control stopped at on the way
 * (once each: a date input's month, day and year are stops of one control).
 */
async function pressUntil(page: Page, name: string | RegExp, key = 'Tab', max = 40): Promise<string[]> {
  const stops: string[] = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(key);
    const now = await focused(page);
    if (stops.at(-1) !== now) stops.push(now);
    if (typeof name === 'string' ? now === name : name.test(now)) return stops;
  }
  throw new Error(`${name} not reached with ${key}; stops: ${stops.join(' | ')}`);
}

/** `rgb(r, g, b)` as `#rrggbb`. */
const hexOfCss = (rgb: string) =>
  `#${(rgb.match(/\d+/g) ?? [])
    .slice(0, 3)
    .map((v) => Number(v).toString(16).padStart(2, '0'))
    .join('')}`;

/**
 * The focused element's outline, and the colour behind it: its ancestors' backgrounds laid over
 * each other as the browser paints them (a field's tint is translucent over the white page).
 */
const focusRing = (page: Page) =>
  page.evaluate<{ style: string; width: number; color: string; behind: string }>(`(() => {
    const a = document.activeElement;
    const cs = getComputedStyle(a);
    const layers = [];
    for (let n = a.parentElement; n; n = n.parentElement) {
      const m = getComputedStyle(n).backgroundColor.match(/[\\d.]+/g).map(Number);
      const alpha = m.length > 3 ? m[3] : 1;
      if (alpha > 0) layers.push([m[0], m[1], m[2], alpha]);
      if (alpha === 1) break;
    }
    let rgb = [255, 255, 255];
    for (const [r, g, b, al] of layers.reverse()) rgb = [r, g, b].map((v, i) => v * al + rgb[i] * (1 - al));
    const behind = 'rgb(' + rgb.map(Math.round).join(', ') + ')';
    return { style: cs.outlineStyle, width: parseFloat(cs.outlineWidth), color: cs.outlineColor, behind };
  })()`);

/** The accessible name of what has focus, as the browser's accessibility tree gives it. */
async function focusedName(page: Page): Promise<string> {
  const snapshot = await page.locator(':focus').ariaSnapshot();
  return /"(.*?)"/.exec(snapshot.split('\n')[0] ?? '')?.[1] ?? '';
}

/** Every stop of `key` from where focus is until `last` (by name), each stop's role line and name. */
async function walk(page: Page, key: string, last: string, max = 60) {
  const stops: { line: string; name: string }[] = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(key);
    const line = (await page.locator(':focus').ariaSnapshot()).split('\n')[0] ?? '';
    const name = await focusedName(page);
    if (stops.at(-1)?.line !== line) stops.push({ line, name });
    if (name === last) return stops;
  }
  throw new Error(`${last} not reached with ${key}: ${stops.map((s) => s.line).join(' | ')}`);
}

/** Whether focus is inside the open dialog. */
const focusInDialog = (page: Page) =>
  page.evaluate<boolean>("Boolean(document.activeElement && document.activeElement.closest('dialog[open]'))");

describe.runIf(runBrowser)('the keyboard alone, names and live announcements', () => {
  describe('signs a whole bundle with Tab, Shift+Tab, Enter, Space, arrows and Escape; focus shows and stays in dialogs', () => {
    let page: Page;
    let context: BrowserContext;
    let problems: string[];

    beforeAll(async () => {
      await aSentBundle('Keyboard lease', { key: 'kim', name: 'Kim Park', email: 'kim.a11y@example.com' }, [
        {
          key: 'name',
          kind: 'inp',
          label: 'Full name',
          required: true,
          page: 1,
          x: 40,
          y: 10,
          w: 40,
          h: 4,
          editors: ['kim'],
        },
        {
          key: 'email',
          kind: 'inp',
          label: 'Email',
          v_pattern: 'email',
          page: 1,
          x: 40,
          y: 17,
          w: 40,
          h: 4,
          editors: ['kim'],
        },
        {
          key: 'start',
          kind: 'dat',
          label: 'Start date',
          required: true,
          page: 1,
          x: 40,
          y: 24,
          w: 30,
          h: 4,
          editors: ['kim'],
        },
        {
          key: 'plan',
          kind: 'sel',
          label: 'Plan',
          required: true,
          format: 'Monthly|Yearly',
          page: 1,
          x: 40,
          y: 31,
          w: 30,
          h: 4,
          editors: ['kim'],
        },
        {
          key: 'agree',
          kind: 'chk',
          label: 'I agree to the terms',
          required: true,
          page: 1,
          x: 11,
          y: 38,
          w: 3,
          h: 2,
          editors: ['kim'],
        },
        {
          key: 'sig',
          kind: 'sig',
          label: 'Tenant signature',
          required: true,
          page: 1,
          x: 11,
          y: 68,
          w: 30,
          h: 7,
          editors: ['kim'],
        },
      ]);
      ({ page, context, problems } = await openDocuments('kim.a11y@example.com', 'Keyboard lease'));
    }, 60_000);

    it('focus starts on the heading; the progress is a status', async () => {
      // The page puts focus on its heading: everything else is reached from there.
      expect(await focused(page)).toBe('Keyboard lease');
      expect(await page.locator('#progress-status').textContent()).toBe('0 of 5 required fields done');
      expect(await page.locator('#progress-status').getAttribute('role')).toBe('status');
    }, 60_000);

    it('Tab walks the named fields in reading order and Shift+Tab back, with a visible focus ring', async () => {
      // Tab walks the fields in reading order, each with a name.
      const stops = await pressUntil(page, 'Tenant signature: Sign');
      expect(stops).toEqual([
        'Full name',
        'Email',
        'Start date',
        'Plan',
        'I agree to the terms',
        'Tenant signature: Sign',
      ]);
      // …and Shift+Tab walks back.
      expect(await pressUntil(page, 'Full name', 'Shift+Tab')).toEqual([
        'I agree to the terms',
        'Plan',
        'Start date',
        'Email',
        'Full name',
      ]);

      // The focus indicator: a solid outline at least 2 px wide, 3:1 against what is behind it.
      const ring = await focusRing(page);
      expect(ring.style).toBe('solid');
      expect(ring.width).toBeGreaterThanOrEqual(2);
      expect(contrastRatio(hexOfCss(ring.color), hexOfCss(ring.behind))).toBeGreaterThanOrEqual(3);
    }, 60_000);

    it('a refused value is announced at once and describes its field', async () => {
      await page.keyboard.type('Kim Park');
      await page.keyboard.press('Tab');
      expect(await page.locator('#progress-status').textContent()).toBe('1 of 5 required fields done');

      // A refused value is said at once: its message is an alert (assertive), and describes the field.
      await page.keyboard.type('kim@');
      await page.keyboard.press('Tab');
      const emailError = page.getByRole('alert').filter({ hasText: 'Enter a valid email address.' });
      await emailError.waitFor();
      const describedBy = await page.getByLabel('Email', { exact: true }).getAttribute('aria-describedby');
      expect(await emailError.getAttribute('id')).toBe(describedBy);
      expect(await page.getByLabel('Email', { exact: true }).getAttribute('aria-invalid')).toBe('true');
      await page.keyboard.press('Shift+Tab');
      for (const key of ['End', 'Shift+Home', 'Backspace']) await page.keyboard.press(key);
      await page.keyboard.type('kim@example.com');
      await page.keyboard.press('Tab');
      await page.getByText('Enter a valid email address.').waitFor({ state: 'detached' });
    }, 60_000);

    it('a date, a list and a checkbox are filled from the keyboard', async () => {
      expect(await focused(page)).toBe('Start date');
      await page.keyboard.type('12012026');
      await pressUntil(page, 'Plan');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Tab');
      expect(await focused(page)).toBe('I agree to the terms');
      await page.keyboard.press('Space');
      await expect
        .poll(() => page.locator('#progress-status').textContent())
        .toBe('4 of 5 required fields done');
    }, 60_000);

    it('the signature dialog opens with Enter, keeps focus inside and gives it back on Escape', async () => {
      // The signature: Enter opens its dialog; focus stays inside; Escape closes it and focus comes back.
      await page.keyboard.press('Tab');
      expect(await focused(page)).toBe('Tenant signature: Sign');
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: 'Add your signature' });
      await dialog.waitFor();
      await expect.poll(() => focused(page)).toBe('Draw');
      for (let i = 0; i < 8; i++) {
        await page.keyboard.press('Tab');
        expect(await focusInDialog(page), `focus after ${i + 1} Tab presses`).toBe(true);
      }
      for (let i = 0; i < 8; i++) {
        await page.keyboard.press('Shift+Tab');
        expect(await focusInDialog(page), `focus after ${i + 1} Shift+Tab presses`).toBe(true);
      }
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      expect(await focused(page)).toBe('Tenant signature: Sign');
    }, 60_000);

    it('a typed signature is chosen with the arrow keys, applied with Enter and announced', async () => {
      // Typed instead of drawn: the tab is reached with the arrow keys, the name is typed, Enter applies.
      const dialog = page.getByRole('dialog', { name: 'Add your signature' });
      await page.keyboard.press('Enter');
      await dialog.waitFor();
      await expect.poll(() => focused(page)).toBe('Draw');
      await page.keyboard.press('ArrowRight');
      expect(await focused(page)).toBe('Type');
      expect(await dialog.getByRole('tab', { name: 'Type' }).getAttribute('aria-selected')).toBe('true');
      await page.keyboard.press('Tab');
      expect((await focusedElement(page)).tag).toBe('input');
      await page.keyboard.press('Enter');
      await dialog.waitFor({ state: 'detached' });
      expect(await focused(page)).toBe('Tenant signature: Kim Park (done; press to change)');
      await expect.poll(() => page.locator('#announcer').textContent()).toBe('Tenant signature added.');
      expect(await page.locator('#progress-status').textContent()).toBe('5 of 5 required fields done');
    }, 60_000);

    it('the consent and the finish button are reached and used from the keyboard', async () => {
      // Finishing: the consent and the button, by Tab and Space and Enter.
      await pressUntil(page, 'consent');
      await page.keyboard.press('Space');
      expect(await page.locator('#consent').isChecked()).toBe(true);
      await pressUntil(page, 'Finish signing');
      const ring2 = await focusRing(page);
      expect(ring2.style).toBe('solid');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'You’re done' }).waitFor();
      expect(problems).toEqual([]);
      await context.close();
    }, 60_000);

    it('every value reached the bundle', async () => {
      const data = await suite.call('GET', '/bundles/?search=Kim');
      const bundle = (data.body as { id: string; label: string }[]).find(
        (b) => b.label === 'Keyboard lease',
      )!;
      const values = (await suite.call('GET', `/bundles/${bundle.id}/data/`)).body as {
        field_key: string;
        value: string;
      }[];
      const value = (key: string) => values.find((v) => v.field_key === key)?.value;
      expect([
        value('name'),
        value('email'),
        value('start'),
        value('plan'),
        value('agree'),
        value('sig'),
      ]).toEqual(['Kim Park', 'kim@example.com', '2026-12-01', 'Yearly', 'true', 'typed:Kim Park']);
    }, 60_000);
  });
});

describe.runIf(runBrowser)('a signing brand’s colour', () => {
  it('a light yellow brand is made readable: zero contrast violations, the adjusted colours shown', async () => {
    const accounts = createAccountStore(suite.runtime.db, suite.runtime.config.tableName);
    const accountId = suite.runtime.demo.accountId;
    await accounts.setFeatures(accountId, { signing_brands: true });
    const brandId = '5d0f8d3e-4a8c-4f7e-9f0e-1c2b3a4d5e6f';
    await accounts.addBrand({
      id: brandId,
      accountId,
      name: 'Sunny Day Rentals',
      primaryColor: '#ffe066',
      created: new Date().toISOString(),
    });
    const sent = await aSentBundle(
      'Sunny lease',
      { key: 'sol', name: 'Sol Ray', email: 'sol.a11y@example.com' },
      aSignature('sol'),
    );
    const patched = await suite.call('PATCH', `/bundles/${sent.id}/`, { json: { signing_brand: brandId } });
    expect(patched.status, patched.text).toBe(200);
    const { page, context } = await openDocuments('sol.a11y@example.com', 'Sunny lease');
    const expected = brandPalette('#ffe066')!;
    expect(expected.brandText).not.toBe('#ffe066');

    const contrast = await axeViolations(page);
    expect(contrast.filter((v) => v.rule === 'color-contrast')).toEqual([]);
    await expectAccessible(page, 'a page with a light yellow brand');
    const colours = await page.evaluate<{
      fill: string;
      text: string;
      brandText: string;
      link: string;
    }>(`(() => {
      const b = getComputedStyle(document.querySelector('.btn.primary'));
      const root = getComputedStyle(document.documentElement);
      return {
        fill: b.backgroundColor,
        text: b.color,
        brandText: root.getPropertyValue('--brand-text').trim(),
      };
    })()`);
    expect(hexOfCss(colours.fill)).toBe(expected.brand);
    expect(hexOfCss(colours.text)).toBe(expected.onBrand);
    expect(colours.brandText).toBe(expected.brandText);
    expect(contrastRatio(hexOfCss(colours.text), hexOfCss(colours.fill))).toBeGreaterThanOrEqual(4.5);
    await shot(page, 'a11y-2-light-yellow-brand.png');

    // Every control the keyboard reaches has a name: up from the heading to the skip link, then
    // down through the document and finishing to the last button.
    expect(await focused(page)).toBe('Sunny lease');
    const up = await walk(page, 'Shift+Tab', 'Skip to content');
    await page.getByRole('heading', { name: 'Sunny lease' }).focus();
    const down = await walk(page, 'Tab', 'Decline to sign');
    const stops = [...up, ...down];
    expect(stops.filter((s) => !s.name.trim())).toEqual([]);
    expect(stops.map((s) => s.name)).toEqual(
      expect.arrayContaining(['Language', 'Start', 'Signature: Sign', 'Finish signing', 'Decline to sign']),
    );
    await context.close();
  }, 60_000);
});
