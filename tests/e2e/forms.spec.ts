import { test, expect, type Page, type TestInfo } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { db, sql } from '../../src/platform/database.ts';
import { readInquiries, type InquiryRecord } from '../../src/server/inquiries.ts';
import { keptMailOf, withLocalData } from './helpers/outbox.ts';
import { personClock, takeYourTime } from './helpers/person';

/**
 * Forms end to end, against the production-like local server. Submissions are checked where the local site keeps
 * them: its database (the inquiries and the mail it kept instead of sending).
 */
async function inquiriesFor(email: string): Promise<InquiryRecord[]> {
  return withLocalData(async () => {
    const rows = await db().query<{ id: string }>(sql`SELECT id FROM inquiries WHERE email = ${email} ORDER BY id`);
    return readInquiries(rows.map((row) => row.id));
  });
}

const outboxFor = keptMailOf;

/** A unique address per test and project, so parallel runs never see each other's submissions. */
const uniqueEmail = (info: TestInfo, label: string) =>
  `${label}-${info.project.name}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;

const axe = async (page: Page, include?: string) => {
  let builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']);
  if (include) builder = builder.include(include);
  const results = await builder.analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(', ')}`)).toEqual([]);
};

/** Never reach the real OpenStreetMap from tests; answer the embed with a stand-in page. */
async function stubMap(page: Page) {
  await page.route('https://www.openstreetmap.org/**', (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>map</title><p>OpenStreetMap stand-in</p>' }),
  );
}

test.describe('/contact', () => {
  test('has the hero, breadcrumb, form, Get In Touch details and a 550px map, with zero axe violations', async ({
    page,
  }) => {
    const problems: string[] = [];
    page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
    page.on('pageerror', (error) => problems.push(error.message));
    const response = await page.goto('/contact');
    expect(response?.status()).toBe(200);
    await expect(page).toHaveTitle('Contact Us | RPL Pathways');
    const breadcrumb = page.getByRole('navigation', { name: 'Breadcrumb' });
    await expect(breadcrumb.getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/');
    await expect(breadcrumb).toContainText('Contact Us');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Book a free consultation' })).toBeVisible();

    const touch = page.locator('section.touch');
    await expect(touch.getByRole('heading', { name: 'Get In Touch' })).toBeVisible();
    await expect(touch.getByRole('link', { name: 'support@rplpathways.com.au' })).toHaveAttribute(
      'href',
      'mailto:support@rplpathways.com.au',
    );
    await expect(touch.getByRole('link', { name: '(02) 5550 1234' })).toHaveAttribute('href', 'tel:0255501234');
    await expect(touch.getByRole('link', { name: '0491 570 156' })).toHaveAttribute('href', 'tel:0491570156');
    await expect(touch).toContainText('200 Gilchrist Dr, Campbelltown NSW 2560');
    await expect(touch).toContainText('Mon - Sat: 8:00 am - 7:00 pm');
    for (const name of ['Facebook', 'Instagram', 'YouTube']) {
      await expect(touch.getByRole('link', { name: new RegExp(name) })).toHaveAttribute('target', '_blank');
    }
    await expect(touch.locator('[data-setting="contactInfo.email"][data-setting-link="mailto"]')).toHaveCount(1);
    await expect(touch.locator('[data-setting="socialMedia.youtube"][data-setting-link="url"]')).toHaveCount(1);

    const map = page.locator('[data-map]');
    expect((await map.boundingBox())?.height).toBe(550);
    await expect(map.locator('iframe')).toHaveCount(0);
    await expect(map.getByRole('link', { name: /Open in OpenStreetMap/ })).toHaveAttribute(
      'href',
      /openstreetmap\.org\/search\?query=200%20Gilchrist/,
    );
    await axe(page);
    expect(problems).toEqual([]);
  });

  test('loads the interactive map only when asked, allowed by this page’s CSP alone', async ({ page, request }) => {
    await stubMap(page);
    const problems: string[] = [];
    page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
    const mapRequests: string[] = [];
    page.on('request', (r) => r.url().includes('openstreetmap.org/export') && mapRequests.push(r.url()));
    await page.goto('/contact', { waitUntil: 'networkidle' });
    expect(mapRequests).toEqual([]);
    await page.getByRole('button', { name: 'Show interactive map' }).click();
    const frame = page.locator('[data-map] iframe');
    await expect(frame).toHaveAttribute('src', /^https:\/\/www\.openstreetmap\.org\/export\/embed\.html\?bbox=/);
    await expect(frame).toHaveAttribute('title', 'Map of 200 Gilchrist Dr, Campbelltown NSW 2560');
    await expect(page.frameLocator('[data-map] iframe').getByText('OpenStreetMap stand-in')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Show interactive map' })).toHaveCount(0);
    expect(problems).toEqual([]);

    const contactCsp = (await request.get('/contact')).headers()['content-security-policy'];
    expect(contactCsp).toContain('frame-src https://www.openstreetmap.org');
    expect(contactCsp).not.toContain('unsafe-inline');
    for (const path of ['/', '/free-quote']) {
      expect((await request.get(path)).headers()['content-security-policy']).not.toContain('openstreetmap');
    }
  });

  test('the contact form sends, thanks, clears, and the message is stored and mailed', async ({ page }, info) => {
    const email = uniqueEmail(info, 'contact');
    await personClock(page);
    await page.goto('/contact');
    const form = page.locator('form.inquiry-form');
    await form.getByLabel('First name').fill('Jane');
    await form.getByLabel('Last name').fill('Citizen');
    await form.getByLabel('E-mail').fill(email);
    await form.getByLabel('Phone').fill('0412 345 678');
    await form.getByLabel('Message').fill('Ten years as a site supervisor.\nWhich qualification fits?');
    await takeYourTime(page);
    const sent = page.waitForResponse('**/api/email/contact');
    await form.getByRole('button', { name: 'Send Message' }).click();
    expect((await sent).status()).toBe(200);
    await expect(form.getByRole('status')).toHaveText("Thank you for your message! We'll be in touch with you soon.");
    await expect(form.getByLabel('E-mail')).toHaveValue('');
    await expect(form.getByLabel('Message')).toHaveValue('');

    const [stored] = await inquiriesFor(email);
    expect(stored).toMatchObject({
      kind: 'contact',
      source: 'contact',
      contact: { firstName: 'Jane', lastName: 'Citizen', phone: '0412 345 678' },
    });
    expect(stored.message).toBe('Ten years as a site supervisor.\nWhich qualification fits?');
    await expect.poll(async () => Object.keys(await outboxFor(stored.id)).sort()).toEqual(['ack', 'staff']);
    const mails = await outboxFor(stored.id);
    expect(mails.staff).toMatchObject({
      to: 'staff@localhost',
      replyTo: email,
      subject: 'New contact message from Jane Citizen',
    });
    expect(mails.staff.text).toContain('Which qualification fits?');
    expect(mails.ack).toMatchObject({ to: email, subject: 'We received your message – RPL Pathways' });
  });

  test('the contact form says what is missing, next to each field, and sends nothing', async ({ page }) => {
    await page.goto('/contact');
    const form = page.locator('form.inquiry-form');
    let posted = false;
    page.on('request', (r) => {
      if (r.url().includes('/api/email/')) posted = true;
    });
    await form.getByLabel('E-mail').fill('not-an-email');
    await form.getByRole('button', { name: 'Send Message' }).click();
    await expect(form.getByLabel('First name')).toHaveAttribute('aria-invalid', 'true');
    await expect(form.getByLabel('First name')).toBeFocused();
    await expect(form.getByText('Enter a valid e-mail address')).toBeVisible();
    await expect(form.getByText('Message is required')).toBeVisible();
    await axe(page, 'form.inquiry-form');
    expect(posted).toBe(false);
  });
});

test.describe('home consultation form', () => {
  test('really sends its message and marks it as from the home page', async ({ page }, info) => {
    const email = uniqueEmail(info, 'home');
    await personClock(page);
    await page.goto('/');
    const section = page.locator('section.consult');
    await section.scrollIntoViewIfNeeded();
    await section.getByLabel('First name').fill('Sam');
    await section.getByLabel('Last name').fill('Nguyen');
    await section.getByLabel('E-mail').fill(email);
    await section.getByLabel('Phone').fill('0400 000 000');
    await section.getByLabel('Message').fill('Chef for 8 years, interested in a Diploma.');
    await takeYourTime(page);
    await section.getByRole('button', { name: 'Book My Free Consultation' }).click();
    await expect(section.getByRole('status')).toHaveText("Thank you! We'll be in touch with you soon.");
    await expect(section.getByLabel('First name')).toHaveValue('');

    const [stored] = await inquiriesFor(email);
    expect(stored).toMatchObject({
      kind: 'contact',
      source: 'home',
      message: 'Chef for 8 years, interested in a Diploma.',
    });
    await expect.poll(async () => Object.keys(await outboxFor(stored.id)).sort()).toEqual(['ack', 'staff']);
    expect((await outboxFor(stored.id)).staff.subject).toBe('New consultation request from Sam Nguyen');
  });

  test('loads no script for the form until a visitor reaches for it', async ({ page }) => {
    const scripts: string[] = [];
    page.on('request', (r) => r.resourceType() === 'script' && scripts.push(r.url()));
    await page.goto('/', { waitUntil: 'networkidle' });
    expect(scripts.filter((url) => url.includes('ContactForm'))).toEqual([]);
    await page.locator('section.consult').getByLabel('First name').focus();
    await expect.poll(() => scripts.some((url) => url.includes('ContactForm'))).toBe(true);
  });
});

test.describe('/free-quote', () => {
  test('five steps from the keyboard to the thank-you screen; stored with course names and mailed', async ({
    page,
  }, info) => {
    test.setTimeout(90_000); // five steps, a submission and two mailbox checks through the local functions
    const email = uniqueEmail(info, 'quote');
    const problems: string[] = [];
    page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
    page.on('pageerror', (error) => problems.push(error.message));
    await personClock(page);
    await page.goto('/free-quote');
    await expect(page).toHaveTitle('Free Quote | RPL Pathways');
    const wizard = page.locator('.quote');
    const heading = wizard.getByRole('heading', { level: 2 });
    const next = wizard.getByRole('button', { name: 'Next' });
    await expect(wizard.locator('[aria-current="step"]')).toContainText('Personal Info');
    await axe(page);

    // Step 1 by keyboard: type, Tab between fields, Enter moves on.
    await expect(next).toBeDisabled();
    await wizard.getByLabel('First name').click();
    await page.keyboard.type('Alex');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Morgan');
    await page.keyboard.press('Tab');
    await page.keyboard.type(email);
    await page.keyboard.press('Tab');
    await page.keyboard.type('0412 345 678');
    await expect(next).toBeEnabled();
    await page.keyboard.press('Enter');

    // Step 2: focus is on the heading; Space ticks a category.
    await expect(heading).toHaveText('Categories');
    await expect(heading).toBeFocused();
    await expect(next).toBeDisabled();
    await wizard.getByLabel('Civil Construction & Trades').focus();
    await page.keyboard.press('Space');
    await expect(wizard.getByLabel('Civil Construction & Trades')).toBeChecked();
    await axe(page, '.quote');
    await next.click();

    // Step 3: only Civil Construction courses.
    await expect(heading).toHaveText('Courses');
    await expect(wizard.locator('.course-group__title')).toHaveText(['Civil Construction & Trades']);
    await expect(next).toBeDisabled();
    await wizard.getByLabel('Filter the list').fill('plant');
    const course = wizard.locator('.choice--course').first();
    const courseTitle = (await course.locator('.choice__title').textContent())!;
    await course.getByRole('checkbox').check();
    await wizard.getByLabel('Your experience (optional)').fill('12 years operating excavators.');
    await axe(page, '.quote');
    await next.click();

    // Step 4: state required, contact time optional.
    await expect(heading).toHaveText('Contact & Location');
    await expect(next).toBeDisabled();
    await wizard.getByLabel('Best time to contact you (optional)').selectOption('Afternoon (12PM-5PM)');
    await wizard.getByLabel(/State or territory/).selectOption('VIC');
    await axe(page, '.quote');
    await next.click();

    // Step 5: review, edit, terms.
    await expect(heading).toHaveText('Review & Submit');
    await expect(wizard.locator('.quote-progress__step.is-active')).toHaveCount(5);
    await expect(wizard.locator('.review')).toContainText('Alex Morgan');
    await expect(wizard.locator('.review')).toContainText(courseTitle);
    await wizard.getByRole('button', { name: 'Edit Contact & Location' }).click();
    await expect(heading).toHaveText('Contact & Location');
    await expect(wizard.getByLabel(/State or territory/)).toHaveValue('VIC');
    await next.click();
    const submit = wizard.getByRole('button', { name: 'Submit Request' });
    await expect(submit).toBeDisabled();
    await wizard.getByLabel(/I agree to be bound by the/).check();
    await axe(page, '.quote');
    await takeYourTime(page);
    await submit.click();

    await expect(heading).toHaveText('Thank you, Alex!');
    await expect(wizard.locator('.quote-done')).toContainText('within 24 hours');
    await expect(page.locator('.quote-done').getByRole('link', { name: 'Upload your evidence' })).toHaveAttribute(
      'href',
      /\/apply#token=[A-Za-z0-9_-]{43}$/,
    );
    await expect(page.locator('.quote-done').getByRole('link', { name: /^Call us now/ })).toHaveAttribute(
      'href',
      /^tel:/,
    );
    await axe(page);

    const [stored] = await inquiriesFor(email);
    expect(stored).toMatchObject({
      kind: 'quote',
      source: 'quote',
      quote: { state: 'VIC', categories: [{ name: 'Civil Construction & Trades' }] },
    });
    expect(stored.quote!.courses[0].title).toBe(courseTitle);
    await expect.poll(async () => Object.keys(await outboxFor(stored.id)).sort()).toEqual(['ack', 'staff']);
    const mails = await outboxFor(stored.id);
    expect(mails.staff.subject).toBe('New free quote request from Alex Morgan (VIC)');
    expect(mails.ack.text).toContain('within 24 hours');

    expect(problems).toEqual([]);

    // Progress is forgotten after success.
    await page.reload();
    await expect(page.locator('.quote').getByRole('heading', { level: 2 })).toHaveText('Personal Info');
    await expect(page.locator('.quote').getByLabel('First name')).toHaveValue('');
  });

  test('progress survives a reload in the same tab', async ({ page }) => {
    await page.goto('/free-quote');
    const wizard = page.locator('.quote');
    await wizard.getByLabel('First name').fill('Robin');
    await wizard.getByLabel('Last name').fill('Lee');
    await wizard.getByLabel('E-mail').fill('robin@example.com');
    await wizard.getByLabel('Phone').fill('0412 345 678');
    await wizard.getByRole('button', { name: 'Next' }).click();
    await wizard.getByLabel('Health & Fitness').check();
    await wizard.getByRole('button', { name: 'Next' }).click();
    await expect(wizard.getByRole('heading', { level: 2 })).toHaveText('Courses');

    await page.reload();
    await expect(wizard.getByRole('heading', { level: 2 })).toHaveText('Courses');
    await expect(wizard.locator('.course-group__title')).toHaveText(['Health & Fitness']);
    await wizard.getByRole('button', { name: 'Previous' }).click();
    await expect(wizard.getByLabel('Health & Fitness')).toBeChecked();
    await wizard.getByRole('button', { name: 'Previous' }).click();
    await expect(wizard.getByLabel('First name')).toHaveValue('Robin');
  });
});

test.describe('privacy at the point of collection', () => {
  /** The notice names who collects, why and who receives the details, and its policy link works. */
  async function expectNotice(page: Page, scope: ReturnType<Page['locator']>, purpose: string) {
    const notice = scope.locator('.privacy-notice');
    await expect(notice).toBeVisible();
    await expect(notice).toContainText(`RPL Pathways collects these details ${purpose}`);
    await expect(notice).toContainText('service providers in the United States');
    await expect(notice).toContainText('partner RTO that would assess you');
    const link = notice.getByRole('link', { name: /Privacy Policy/ });
    await expect(link).toHaveAttribute('href', '/privacy-policy');
    const [policy] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
    await policy.waitForLoadState();
    await expect(policy).toHaveTitle(/Privacy Policy/);
    await expect(policy.locator('main')).toContainText('Resend');
    await policy.close();
  }

  async function expectUntickedConsents(scope: ReturnType<Page['locator']>) {
    const consents = scope.getByRole('group', { name: 'Optional choices' });
    await expect(consents).toContainText('Both are optional');
    await expect(consents.getByRole('checkbox', { name: /partner RTO that would assess me/ })).not.toBeChecked();
    await expect(consents.getByRole('checkbox', { name: /news and offers/ })).not.toBeChecked();
  }

  test('the contact form shows the notice and two unticked consents', async ({ page }) => {
    await page.goto('/contact');
    const form = page.locator('form.inquiry-form');
    await expectNotice(page, form, 'to answer your inquiry');
    await expectUntickedConsents(form);
    await axe(page, 'form.inquiry-form');
  });

  test('the home consultation form shows the notice and two unticked consents', async ({ page }) => {
    await page.goto('/');
    const form = page.locator('section.consult form');
    await form.scrollIntoViewIfNeeded();
    await expectNotice(page, form, 'to answer your inquiry');
    await expectUntickedConsents(form);
    await axe(page, 'section.consult');
  });

  test('the free quote shows the notice where details are collected and stores the partner RTO consent when ticked', async ({
    page,
  }, info) => {
    const email = uniqueEmail(info, 'consent');
    await personClock(page);
    await page.goto('/free-quote');
    const wizard = page.locator('.quote');
    await expectNotice(page, wizard, 'to prepare your quote');
    await wizard.getByLabel('First name').fill('Kim');
    await wizard.getByLabel('Last name').fill('Tran');
    await wizard.getByLabel('E-mail').fill(email);
    await wizard.getByLabel('Phone').fill('0412 345 678');
    const next = wizard.getByRole('button', { name: 'Next' });
    await next.click();
    await wizard.getByLabel('Health & Fitness').check();
    await next.click();
    await wizard.locator('.choice--course').first().getByRole('checkbox').check();
    await next.click();
    await wizard.getByLabel(/State or territory/).selectOption('QLD');
    await next.click();

    await expectUntickedConsents(wizard);
    await axe(page, '.quote');
    await wizard.getByLabel(/I agree to be bound by the/).check();
    await wizard.getByRole('checkbox', { name: /partner RTO that would assess me/ }).check();
    await takeYourTime(page);
    await wizard.getByRole('button', { name: 'Submit Request' }).click();
    await expect(wizard.getByRole('heading', { level: 2 })).toHaveText('Thank you, Kim!');

    const [stored] = await inquiriesFor(email);
    expect(stored).toMatchObject({ kind: 'quote', consents: { partnerRto: true, marketing: false } });
  });
});
