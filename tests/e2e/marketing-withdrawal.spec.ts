import { test, expect, type APIRequestContext } from '@playwright/test';
import { createHash } from 'node:crypto';
import { isSuppressed, keptMail } from './helpers/outbox.ts';
import { ONCE } from './helpers/viewports';
import { axeViolations } from './helpers/still';
import { test as signedIn } from './helpers/staff-session';

/**
 * Withdrawing marketing consent from the link in the acknowledgement e-mail. The local site keeps the mail it
 * would have sent and the suppression list in its database; both are read from there.
 */

/** The acknowledgement e-mail of an inquiry, once it is in the outbox. */
async function ackText(id: string): Promise<string> {
  return (await keptMail(`inquiry-${id}-ack`))?.text ?? '';
}

/** Sends the contact form through the API as a visitor would, marketing ticked; answers the inquiry id. */
async function sendContact(request: APIRequestContext, email: string): Promise<string> {
  const sent = await request.post('/api/email/contact', {
    data: {
      firstName: 'Wendy',
      lastName: 'Withdraw',
      email,
      phone: '0412 345 678',
      message: 'Please call me.',
      consentPartnerRto: false,
      consentMarketing: true,
      website: '',
      elapsedMs: 5000,
    },
  });
  expect(sent.status()).toBe(200);
  return ((await sent.json()) as { id: string }).id;
}

const uniqueEmail = (label: string) => `${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;

test(
  'finding 8: the link in the e-mail opens a page that changes nothing until the visitor confirms',
  ONCE,
  async ({ page, request }) => {
    const email = uniqueEmail('withdraw');
    const id = await sendContact(request, email);
    await expect.poll(() => ackText(id)).toContain('/marketing-withdrawal?');
    const link = new URL(/https?:\/\/\S+\/marketing-withdrawal\?\S+/.exec(await ackText(id))![0]);
    // This address's entry on the suppression list (other tests withdraw other addresses at the same time).
    const entry = createHash('sha256').update(email.toLowerCase()).digest('hex');
    const listed = () => isSuppressed(entry);

    await page.goto(`/marketing-withdrawal${link.search}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Stop marketing e-mails' })).toBeVisible();
    expect(await listed(), 'opening the page stores nothing').toBe(false);
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Stop marketing e-mails' }).click();
    await expect(page.getByRole('status')).toContainText('Done: we will not send you marketing e-mails.');
    await expect.poll(listed).toBe(true);

    // An altered link is refused on the page (that the refusal stores nothing is checked against the handler in
    // tests/unit/marketing-withdrawal.test.ts).
    const altered = new URLSearchParams(link.search);
    altered.set(
      'i',
      id.replace(/.$/, (c) => (c === '0' ? '1' : '0')),
    );
    await page.goto(`/marketing-withdrawal?${altered}`);
    await page.getByRole('button', { name: 'Stop marketing e-mails' }).click();
    await expect(page.getByRole('status')).toContainText('This link is not valid');
  },
);

signedIn(
  'finding 8: staff record a withdrawal in the inbox and every inquiry from the address shows it',
  ONCE,
  async ({ page, request }) => {
    const email = uniqueEmail('staff-withdraw');
    await sendContact(request, email);
    await sendContact(request, email);
    await page.goto('/admin/inquiries');
    await page.getByLabel('Search inquiries').fill(email);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const items = page.locator('.inbox-item');
    await expect(items).toHaveCount(2);
    await expect(items.first()).toContainText('Marketing: Yes');

    await items
      .first()
      .getByRole('button', { name: /Details, notes and assignment/ })
      .click();
    await items.first().getByRole('button', { name: 'Record marketing withdrawal' }).click();
    await expect(items.first().getByTestId('marketing-state')).toContainText(
      /Marketing: withdrawn \(\d{1,2} \w{3} \d{4}\), recorded by/,
    );
    for (const item of await items.all())
      await expect(item).toContainText(/Marketing: withdrawn \(\d{1,2} \w{3} \d{4}\)/);
    expect(await axeViolations(page)).toEqual([]);
  },
);
