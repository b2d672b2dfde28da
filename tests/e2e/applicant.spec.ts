import { test, expect, type TestInfo } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { keptMail } from './helpers/outbox.ts';
import { createStaff, signInWithForm } from './helpers/accounts';

/**
 * From the quote to the applicant page (issue 25): the link from the acknowledgement e-mail in the local
 * outbox opens /apply; one file is accepted, an HTML file renamed .pdf is refused for its content; staff see
 * the accepted file in the inbox's evidence panel and ask for more; the applicant sees the request and the stage.
 */
const uniqueEmail = (info: TestInfo) =>
  `applicant-${info.project.name}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
const eventually = expect.configure({ timeout: 20_000 });
const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(20_000, 7)]);

test('a quote leads to the applicant page: evidence sent, reviewed by staff, the request seen', async ({
  page,
  browser,
}, info) => {
  const email = uniqueEmail(info);
  const answer = await page.request.post('/api/email/quote', {
    data: {
      firstName: 'Robin',
      lastName: 'Nguyen',
      email,
      phone: '0412 345 678',
      mobileNumber: '',
      preferredContact: 'Any time',
      state: 'NSW',
      selectedCategories: ['civil-construction'],
      selectedCourses: ['CPC30220'],
      experience: 'Ten years framing houses.',
      goals: '',
      additionalInfo: '',
      acceptedTerms: true,
      website: '',
      elapsedMs: 5000,
    },
  });
  expect(answer.status()).toBe(200);
  const { id, reference, applicantLink } = await answer.json();
  expect(reference).toMatch(/^RPL-/);
  expect(applicantLink).toMatch(/\/apply#token=[A-Za-z0-9_-]{43}$/);

  // The link from the acknowledgement e-mail in the local outbox.
  await eventually.poll(() => keptMail(`inquiry-${id}-ack`)).not.toBeNull();
  const ack = (await keptMail(`inquiry-${id}-ack`))!;
  const link = /\/apply#token=[A-Za-z0-9_-]{43}/.exec(ack.text)?.[0];
  expect(link).toBeDefined();
  await page.goto(link!);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(reference);
  // The token left the address bar at once.
  await expect(page).toHaveURL(/\/apply$/);
  await expect(page.locator('[aria-current="step"]')).toContainText('Received');
  const axe = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(', ')}`)).toEqual([]);

  const firstItem = page.locator('.apply__item').first();
  const itemText = (await firstItem.locator('h3').textContent())!;
  await firstItem.getByLabel(`Add files for: ${itemText}`).setInputFiles({
    name: 'framing-reference.pdf',
    mimeType: 'application/pdf',
    buffer: pdf,
  });
  await eventually(firstItem.locator('.apply__files')).toContainText('framing-reference.pdf');
  const general = page.locator('.apply__item[data-item="general"]');
  await general.getByLabel(/^Add files for:/).setInputFiles({
    name: 'payslip.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from('<!doctype html><script>alert(1)</script>'),
  });
  await eventually(general.getByRole('alert')).toHaveText(
    'payslip.pdf was not accepted. Only PDF, JPEG, PNG, HEIC, Word (DOCX) and OpenDocument (ODT) files are accepted.',
  );
  await expect(general.locator('.apply__files')).toHaveCount(0);
  await page.screenshot({ path: `test-results/applicant-screens/${info.project.name}-apply.png`, fullPage: true });

  // Staff: the accepted file in the evidence panel, marked "needs more", and the stage moved.
  const staffContext = await browser.newContext({ viewport: page.viewportSize() ?? undefined });
  const staff = await staffContext.newPage();
  await signInWithForm(staff, await createStaff('evidence'), '/admin/inquiries');
  await staff.getByRole('button', { name: /^All/ }).click();
  await staff.getByLabel('Search inquiries').fill(reference);
  await staff.getByRole('button', { name: 'Search', exact: true }).click();
  const item = staff.locator('.inbox-item');
  await eventually(item).toHaveCount(1);
  await item.getByRole('button', { name: /Details, notes and assignment/ }).click();
  const panel = item.getByTestId('evidence-panel');
  await eventually(panel.getByRole('button', { name: 'framing-reference.pdf' })).toBeVisible();
  await expect(panel).not.toContainText('payslip.pdf');
  const row = panel.locator('.evidence-panel__item').filter({ hasText: 'framing-reference.pdf' });
  await row.getByLabel('Review').selectOption('needs-more');
  await row.getByLabel('Note to the applicant').fill('Please add a signed reference from your employer.');
  await row.getByRole('button', { name: 'Save review' }).click();
  await eventually(row.locator('.evidence-panel__badge')).toContainText('Needs more');
  await panel.getByLabel('Move to stage').selectOption('gathering');
  await panel.getByRole('button', { name: 'Save stage' }).click();
  await eventually(panel).toContainText('Stage: Gathering evidence');
  await staff.screenshot({ path: `test-results/applicant-screens/${info.project.name}-panel.png`, fullPage: true });
  await staffContext.close();

  // The applicant sees the request and the stage (the token stays in this tab's sessionStorage).
  await page.reload();
  await eventually(firstItem.locator('.apply__request')).toContainText(
    'Please add a signed reference from your employer.',
  );
  await expect(firstItem.locator('.apply__badge')).toHaveText('Needs more');
  await expect(page.locator('[aria-current="step"]')).toContainText('Gathering evidence');
});

test('six files chosen at once are sent two at a time, the others shown waiting, and all six arrive', async ({
  page,
}, info) => {
  const answer = await page.request.post('/api/email/quote', {
    data: {
      firstName: 'Kai',
      lastName: 'Walker',
      email: uniqueEmail(info),
      phone: '0412 345 678',
      mobileNumber: '',
      preferredContact: 'Any time',
      state: 'QLD',
      selectedCategories: ['civil-construction'],
      selectedCourses: ['CPC30220'],
      experience: 'Formwork and framing for eight years.',
      goals: '',
      additionalInfo: '',
      acceptedTerms: true,
      website: '',
      elapsedMs: 5000,
    },
  });
  const { applicantLink } = await answer.json();
  // Files on their way: a start request begins one, its "complete" request ends it.
  let onTheirWay = 0;
  let most = 0;
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/applicant/evidence') {
      onTheirWay++;
      most = Math.max(most, onTheirWay);
    }
  });
  page.on('requestfinished', (request) => {
    if (/\/api\/applicant\/evidence\/[^/]+\/complete$/.test(new URL(request.url()).pathname)) onTheirWay--;
  });
  await page.goto(new URL(applicantLink).pathname + new URL(applicantLink).hash);
  const general = page.locator('.apply__item[data-item="general"]');
  const names = Array.from({ length: 6 }, (_, i) => `site-photo-${i + 1}.pdf`);
  await general
    .getByLabel(/^Add files for:/)
    .setInputFiles(names.map((name) => ({ name, mimeType: 'application/pdf', buffer: pdf })));
  await expect(general.getByText('Waiting to send').first()).toBeVisible();
  for (const name of names) await eventually(general.locator('.apply__files')).toContainText(name);
  await expect(general.getByText('Waiting to send')).toHaveCount(0);
  expect(most).toBe(2);
});
