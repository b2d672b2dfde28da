import { expect } from '@playwright/test';
import { mkdir } from 'node:fs/promises';
import { keptMailTo } from './helpers/outbox.ts';
import { join } from 'node:path';
import { axeViolations } from './helpers/still';
import { test } from './helpers/staff-session';
import { storeInquiry } from './helpers/inquiries';
import { ONCE } from './helpers/viewports';

/**
 * Issue 26, items 2 and 3: a reply from a template reaches the local outbox and stays on the inquiry; a
 * follow-up set for today shows on the dashboard as due and in the inbox's filter. The mail is read from the
 * local site's database, where it keeps what it would have sent.
 */
const SCREENS = join(process.cwd(), 'test-results', 'screens');
const eventually = expect.configure({ timeout: 20_000 });

/** Today's date in Sydney, as the site counts days. */
const sydneyToday = () =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Australia/Sydney',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date());

test(
  'finding 2: a reply from a template lands in the local outbox and on the inquiry, with who sent it',
  ONCE,
  async ({ page, staff }, testInfo) => {
    const email = `reply-${testInfo.project.name}-${Date.now()}@example.com`;
    const record = await storeInquiry({ firstName: 'Rosa', lastName: 'Replies', email });
    await page.goto(`/admin/inquiries?q=${encodeURIComponent(email)}`);
    const item = page.locator('.inbox-item');
    await eventually(item).toHaveCount(1);
    await item.getByRole('button', { name: /Details, notes and assignment/ }).click();

    const form = item.getByRole('form', { name: 'Write a reply' });
    await form.getByRole('button', { name: 'Send reply' }).click();
    await eventually(form.getByRole('alert')).toHaveText('Write a subject');
    await form.getByLabel('Start from a template').selectOption({ label: 'Quote sent' });
    await eventually(form.getByLabel('Subject')).toHaveValue('Your RPL quote – {reference}');
    const preview = form.getByTestId('reply-preview');
    await eventually(preview).toContainText('Hi Rosa,');
    await eventually(preview).toContainText(`Your RPL quote – ${record.reference}`);
    await mkdir(SCREENS, { recursive: true });
    await item.screenshot({ path: join(SCREENS, `reply-form-${testInfo.project.name}.png`) });
    expect(await axeViolations(page)).toEqual([]);

    await form.getByRole('button', { name: 'Send reply' }).click();
    await eventually(page.getByText('Reply sent')).toBeVisible();
    const replies = item.getByTestId('inbox-replies');
    await eventually(replies).toContainText(`Your RPL quote – ${record.reference}`);
    await eventually(replies).toContainText('Hi Rosa,');
    await eventually(replies).toContainText(`${staff.account.firstName} ${staff.account.lastName} ·`);
    await eventually(replies).toContainText('Sent (local outbox)');
    await item.screenshot({ path: join(SCREENS, `reply-sent-${testInfo.project.name}.png`) });

    // In the local outbox, addressed to the person, with the name and reference filled in.
    await expect
      .poll(async () => (await keptMailTo(email, `inquiry-${record.id}-reply-`)).length, { timeout: 20_000 })
      .toBe(1);
    const [mail] = await keptMailTo(email, `inquiry-${record.id}-reply-`);
    expect(mail).toMatchObject({ to: email, subject: `Your RPL quote – ${record.reference}` });
    expect(mail!.text).toContain('Hi Rosa,');

    // On the inquiry after a reload: from the store, not from the page's memory.
    await page.reload();
    await eventually(item).toHaveCount(1);
    await item.getByRole('button', { name: /Details, notes and assignment/ }).click();
    await eventually(item.getByTestId('inbox-replies')).toContainText(`Your RPL quote – ${record.reference}`);
  },
);

test(
  'finding 3: a follow-up set for today shows on the dashboard as due and in the inbox filter',
  ONCE,
  async ({ page }, testInfo) => {
    const email = `follow-${testInfo.project.name}-${Date.now()}@example.com`;
    const record = await storeInquiry({ firstName: 'Fiona', lastName: 'Replies', email });
    await page.goto(`/admin/inquiries?q=${encodeURIComponent(email)}`);
    const item = page.locator('.inbox-item');
    await eventually(item).toHaveCount(1);
    await item.getByRole('button', { name: /Details, notes and assignment/ }).click();
    await item.getByLabel('Follow up on').fill(sydneyToday());
    await item.getByRole('button', { name: 'Save follow-up' }).click();
    await eventually(item.getByTestId('follow-up-state')).toContainText(/^Follow up on .+ \(set by .+\)$/);
    await eventually(item.getByTestId('inbox-follow-up')).toBeVisible();

    // The dashboard lists it as due today, linking to the inquiry.
    await page.goto('/admin/dashboard');
    const due = page.getByTestId('follow-ups-due');
    const link = due.getByRole('link', { name: record.reference });
    await eventually(link).toBeVisible();
    await eventually(due.getByRole('listitem').filter({ hasText: record.reference })).toContainText('Fiona Replies');
    await page
      .getByTestId('follow-ups')
      .screenshot({ path: join(SCREENS, `dashboard-follow-ups-${testInfo.project.name}.png`) });
    expect(await axeViolations(page)).toEqual([]);
    await link.click();
    await eventually(page.locator('.inbox-item')).toHaveCount(1);
    await eventually(page.locator('.inbox-item')).toContainText(email);

    // The inbox's own filter finds it, with its count.
    await page.goto('/admin/inquiries');
    const filter = page.getByRole('group', { name: 'Follow-ups' }).getByRole('button', { name: /^Due today/ });
    await filter.click();
    await eventually(filter).toHaveAttribute('aria-pressed', 'true');
    await eventually(filter.locator('.segmented__count')).toHaveText(/^[1-9]\d*$/);
    await eventually(page.locator('.inbox-item').first()).toBeVisible();
    await page.screenshot({
      path: join(SCREENS, `inbox-follow-up-filter-${testInfo.project.name}.png`),
      fullPage: false,
    });
    // Searching within the filter narrows it to this inquiry.
    await page.getByLabel('Search inquiries').fill(email);
    await page.getByLabel('Search inquiries').press('Enter');
    await eventually(page.locator('.inbox-item')).toHaveCount(1);
    await eventually(page.locator('.inbox-item')).toContainText(email);
    await eventually(filter).toHaveAttribute('aria-pressed', 'true');
    await eventually(filter.locator('.segmented__count')).toHaveText('1');
  },
);

test('finding 2: the reply templates screen shows the templates staff start from', async ({ page }, testInfo) => {
  await page.goto('/admin/reply-templates');
  const templates = page.getByTestId('reply-template');
  await eventually(templates.first()).toBeVisible();
  await eventually(page.getByRole('button', { name: 'Save templates' })).toBeVisible();
  await mkdir(SCREENS, { recursive: true });
  await page.screenshot({ path: join(SCREENS, `reply-templates-${testInfo.project.name}.png`), fullPage: true });
  expect(await axeViolations(page)).toEqual([]);
});
