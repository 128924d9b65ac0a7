// A portal smart link signed end to end in a real headless Chromium (Debian's, driven by
// playwright-core): the public form, the bundle made from the envelope template for whoever
// filled it in, and the embedded signing page it redirects into. Screenshots go to test-artifacts/.
import { beforeAll, describe, expect, it } from 'vitest';
import { runBrowser, shot, watchProblems } from '../helpers/browser';
import { browserSuite } from '../helpers/browser-suite';
import { eventually } from '../helpers/receiver';

const suite = browserSuite({
  pdf: [
    {
      size: 'Letter',
      text: [
        { value: 'Climbing Gym Liability Waiver', x: 72, y: 720, size: 20 },
        { value: 'I understand that climbing involves risk.', x: 72, y: 660, size: 11 },
        { value: 'Visitor signature:', x: 72, y: 265, size: 11 },
      ],
    },
  ],
});
let smartLink: string;

beforeAll(async () => {
  const envelope = await suite.portalWaiver({
    name: 'Climbing gym waiver',
    description: 'Sign before your first climb.',
    label: 'Gym waiver',
    field: { label: 'Visitor signature', required: true, page: 1, x: 11.5, y: 62, w: 32, h: 7 },
    visitor: { label: 'Visitor' },
  });
  smartLink = envelope.smart_link_url;
});

describe.runIf(runBrowser)('a portal smart link in a real browser', () => {
  it('a visitor gives their name and email, signs at once, and the bundle completes', async () => {
    const context = await suite.browser.newContext({
      viewport: { width: 1280, height: 800 },
      locale: 'en-US',
    });
    const page = await context.newPage();
    const problems = watchProblems(page, { responses: true });

    await page.goto(smartLink);
    await page.getByRole('heading', { name: 'Climbing gym waiver' }).waitFor();
    // Submitting empty is stopped by the browser; a bad email by the server, keeping the name.
    await page.getByLabel('Your full name').fill('Pat Climber');
    await page.getByLabel('Your email').fill('pat@localhost');
    await page.getByRole('button', { name: 'Continue to sign' }).click();
    await page.getByText('Enter a valid email address.').waitFor();
    expect(await page.getByLabel('Your full name').inputValue()).toBe('Pat Climber');
    // That refusal was the page's own 400; from here on nothing may fail.
    expect(problems.every((p) => p.includes('400'))).toBe(true);
    problems.length = 0;
    await page.getByLabel('Your email').fill('pat.portal@example.com');
    await shot(page, 'portal-1-form.png');
    await page.getByRole('button', { name: 'Continue to sign' }).click();

    // Straight into the signing page of the new bundle.
    await page.waitForURL(new RegExp(`${suite.runtime.baseUrl}/sign/[0-9A-Za-z]{43}`));
    await page.getByRole('heading', { name: 'Gym waiver' }).waitFor();
    await page.locator('.page.rendered').first().waitFor();
    await page.getByRole('button', { name: 'Start' }).click();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Add your signature' }).waitFor();
    await page.getByRole('tab', { name: 'Type' }).click();
    await page.getByRole('button', { name: 'Apply signature' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await shot(page, 'portal-2-signed-field.png');
    await page.getByRole('button', { name: 'Go to finish' }).click();
    await page.getByLabel(/I agree to sign these documents electronically/).check();
    await page.getByRole('button', { name: 'Finish signing' }).click();
    await page.getByRole('heading', { name: 'You’re done' }).waitFor();
    await shot(page, 'portal-3-done.png');
    expect(problems).toEqual([]);
    await context.close();

    // What the template's account sees: a bundle from the template, complete, signed by Pat.
    const bundle = await eventually(
      async () => {
        const list = await suite.call('GET', '/bundles/?search=Pat');
        const b = (list.body as { id: string; status: string; packets: { email: string }[] }[]).find(
          (x) => x.packets[0]?.email === 'pat.portal@example.com',
        );
        return b?.status === 'co' && b;
      },
      20_000,
      'the bundle to be complete',
    );
    expect(bundle).toMatchObject({
      label: 'Gym waiver',
      packets: [{ name: 'Pat Climber', deliver_via: 'embed', status: 'co' }],
    });
    const data = await suite.call('GET', `/bundles/${bundle.id}/data/`);
    expect(data.status, data.text).toBe(200);
    expect((data.body as { field_key: string }[]).find((d) => d.field_key === 'sig')).toMatchObject({
      filled_by: 'visitor',
    });
  }, 120_000);
});
