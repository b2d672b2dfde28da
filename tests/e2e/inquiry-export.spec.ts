/**
 * The inbox's CSV exports from the staff's side: a date range chosen in the two date fields (only the inquiries
 * received on those days), and every inquiry through the background export, with its progress and a download
 * offered when the file is ready (under `npm start` the CLI runs the background function as Netlify would).
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { test, expect as baseExpect, type Download } from '@playwright/test';
import { ONCE } from './helpers/viewports';
import { createStaff, signInWithForm } from './helpers/accounts';
import { openLocalData } from '../../scripts/lib/local-data.ts';
import { createInquiry } from '../../src/server/inquiries.ts';

/** The admin loads from functions that share the machine with other tests. */
const expect = baseExpect.configure({ timeout: 30_000 });
const OLD_DAY = '2025-03-10';

/** An inquiry straight into the server's store, received at `at` (the forms only ever store now). */
async function storeInquiry(email: string, at: Date) {
  const target = await openLocalData({});
  try {
    const contact = { firstName: 'Export', lastName: 'Tester', email, phone: '0400 000 000' };
    return await createInquiry({ kind: 'contact', source: 'contact', contact, message: 'Export me.' }, at);
  } finally {
    await target.close();
  }
}

const textOf = async (download: Download) => readFile(await download.path(), 'utf8');

test(
  'finding 14: the inbox exports the inquiries of the chosen days, and every inquiry in the background',
  ONCE,
  async ({ page }) => {
    test.setTimeout(180_000);
    const stamp = randomBytes(4).toString('hex');
    const old = `export-old-${stamp}@example.com`;
    const recent = `export-recent-${stamp}@example.com`;
    await storeInquiry(old, new Date(`${OLD_DAY}T03:00:00Z`));
    await storeInquiry(recent, new Date());

    await signInWithForm(page, await createStaff('export'), '/admin/inquiries');
    const panel = page.getByRole('region', { name: 'Export to CSV' });
    // The last 90 days to start with.
    const today = new Date().toISOString().slice(0, 10);
    await expect(panel.getByLabel('To')).toHaveValue(today);
    await expect(panel.getByLabel('From')).toHaveValue(
      new Date(Date.parse(`${today}T00:00:00Z`) - 89 * 86_400_000).toISOString().slice(0, 10),
    );

    await panel.getByLabel('From').fill(OLD_DAY);
    await panel.getByLabel('To').fill(OLD_DAY);
    const ranged = page.waitForEvent('download');
    await panel.getByRole('button', { name: 'Export CSV' }).click();
    const rangeFile = await ranged;
    expect(rangeFile.suggestedFilename()).toBe(`inquiries-${OLD_DAY}-to-${OLD_DAY}.csv`);
    const rangeCsv = await textOf(rangeFile);
    expect(rangeCsv).toContain(old);
    expect(rangeCsv).not.toContain(recent);

    await panel.getByRole('button', { name: 'Export every inquiry' }).click();
    const progress = panel.getByTestId('export-progress');
    await expect(progress).toHaveAttribute('data-state', /queued|running|done/);
    await expect(progress).toHaveAttribute('data-state', 'done', { timeout: 120_000 });
    await expect(progress).toContainText(/^Ready: [\d,]+ inquiries\. The file is kept until /);
    const everything = page.waitForEvent('download');
    await panel.getByRole('button', { name: 'Download the file' }).click();
    const allFile = await everything;
    expect(allFile.suggestedFilename()).toMatch(/^inquiries-all-\d{4}-\d{2}-\d{2}\.csv$/);
    const allCsv = await textOf(allFile);
    expect(allCsv).toContain(old);
    expect(allCsv).toContain(recent);
  },
);
