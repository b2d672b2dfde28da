import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStores } from './helpers/stores';
import { signedInStaff } from './helpers/staff';
import { addView, readSnapshot, recordSnapshot, viewsIn } from '../../src/server/counters';
import { dashboardStats } from '../../src/server/stats';
import { growth, monthKey, previousMonthKey } from '../../src/server/months';
import { readSettings } from '../../src/server/settings';
import { defaultSiteSettings } from '../../src/lib/site-settings';
import statsHandler from '../../netlify/functions/dashboard-stats.mts';
import settingsHandler from '../../netlify/functions/site-settings.mts';
import { formatCount, formatGrowth, initials } from '../../src/admin/format';
import { safeNext } from '../../src/admin/session';
import coursesJson from '../../content/courses.json';

let stores: Awaited<ReturnType<typeof startStores>>;
let token = '';
beforeAll(async () => {
  process.env.JWT_SECRET = 'unit-test-secret-that-is-long-enough-0123456789';
  stores = await startStores();
  token = await signedInStaff({ username: 'dash-admin', firstName: 'Dana', lastName: 'Admin' });
});
afterAll(() => stores.stop());

const auth = (init: RequestInit = {}) => ({
  ...init,
  headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...(init.headers ?? {}) },
});

describe('months and growth', () => {
  it('counts months in Sydney time', () => {
    expect(monthKey(new Date('2026-10-31T13:30:00Z'))).toBe('2026-11'); // 00:30 on 1 Nov in Sydney (AEDT)
    expect(monthKey(new Date('2026-10-31T12:30:00Z'))).toBe('2026-10');
    expect(previousMonthKey('2026-01')).toBe('2025-12');
    expect(previousMonthKey('2026-11')).toBe('2026-10');
  });
  it('is a one-decimal percentage, +100% from nothing, 0% for nothing to nothing', () => {
    expect(growth(150, 100)).toBe(50);
    expect(growth(2, 3)).toBe(-33.3);
    expect(growth(5, 0)).toBe(100);
    expect(growth(0, 0)).toBe(0);
  });
});

describe('dashboard stats', () => {
  it('computes figures and growth from the content, the blog posts and the monthly counters', async () => {
    const now = new Date('2026-11-20T02:00:00Z');
    // Whole rows, as the blog writes them.
    let next = 0;
    const post = (slug: string, isPublished: boolean, createdAt: string, publishedAt?: string) =>
      stores.engine.query(
        `INSERT INTO blog_posts (id, slug, title, excerpt, content, content_type, html, author, category,
           is_published, published_at, version, created_at, updated_at)
         VALUES ($1, $2, $2, 'Excerpt', '<p>Body</p>', 'html', '<p>Body</p>', 'Author', 'General', $3, $4, 1, $5, $5)`,
        [(++next).toString(16).padStart(32, '0'), slug, isPublished, publishedAt ?? null, createdAt],
      );
    await post('old-published', true, '2026-09-01T00:00:00Z', '2026-09-02T00:00:00Z');
    await post('new-published', true, '2026-11-10T00:00:00Z', '2026-11-10T00:00:00Z');
    await post('draft', false, '2026-11-12T00:00:00Z');
    for (let i = 0; i < 4; i++) await addView(new Date('2026-10-15T00:00:00Z'));
    for (let i = 0; i < 6; i++) await addView(now);
    await recordSnapshot('2026-10', { courses: coursesJson.length - 3, categories: 11, publishedBlogs: 1 });

    const stats = await dashboardStats(now);
    expect(stats.overview).toEqual({
      totalCourses: coursesJson.length,
      totalCategories: 11,
      totalBlogs: 3,
      publishedBlogs: 2,
      totalViews: 6,
      monthlyGrowth: 50,
    });
    expect(stats.trends).toEqual({
      coursesGrowth: growth(coursesJson.length, coursesJson.length - 3),
      blogsGrowth: 100,
      categoriesGrowth: 0,
      viewsGrowth: 50,
    });
    expect(stats.recentActivity.blogs.map((b) => b.slug)).toEqual(['draft', 'new-published', 'old-published']);
    // This month's baseline was recorded for next month's growth.
    expect(await readSnapshot('2026-11')).toMatchObject({
      courses: coursesJson.length,
      categories: 11,
      publishedBlogs: 2,
    });
    // The first baseline of a month stays: a later visit does not move it.
    await stores.engine.query(`UPDATE blog_posts SET is_published = true`);
    await dashboardStats(now);
    expect((await readSnapshot('2026-11'))?.publishedBlogs).toBe(2);
  });

  it('counts concurrent views without losing any', async () => {
    const at = new Date('2027-03-10T00:00:00Z');
    await Promise.all(Array.from({ length: 25 }, () => addView(at)));
    expect(await viewsIn(monthKey(at))).toBe(25);
  });

  it('is served to staff only', async () => {
    expect((await statsHandler(new Request('http://localhost/api/admin/dashboard-stats'))).status).toBe(401);
    const response = await statsHandler(new Request('http://localhost/api/admin/dashboard-stats', auth()));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      overview: { totalCourses: coursesJson.length },
      trends: expect.any(Object),
      recentActivity: expect.any(Object),
    });
  });
});

describe('site settings API', () => {
  const valid = {
    contactInfo: {
      email: 'hello@example.com.au',
      phone: '(02) 5550 9999',
      phoneSecondary: '',
      address: '1 Test St, Sydney NSW 2000',
      businessHours: 'Mon - Fri: 9:00 am - 5:00 pm',
    },
    socialMedia: { facebook: 'https://facebook.com/example', instagram: '', youtube: '#' },
  };
  /** A save at the stored version (objects only; a string is sent as it is). */
  const post = async (body: unknown, init: RequestInit = {}) =>
    settingsHandler(
      new Request(
        'http://localhost/api/admin/site-settings',
        auth({
          method: 'POST',
          body:
            typeof body === 'string'
              ? body
              : JSON.stringify({ ...(body as object), version: (await readSettings()).version }),
          ...init,
        }),
      ),
    );

  it('starts from the built-in defaults', async () => {
    const response = await settingsHandler(new Request('http://localhost/api/public/site-settings'));
    expect(await response.json()).toEqual(defaultSiteSettings);
    expect(response.headers.get('netlify-cache-tag')).toBe('site-settings');
  });

  it('refuses anonymous, invalid, oversized and non-JSON saves and changes nothing', async () => {
    const before = await readSettings();
    expect(
      (
        await settingsHandler(
          new Request('http://localhost/api/admin/site-settings', {
            method: 'POST',
            body: JSON.stringify(valid),
            headers: { 'content-type': 'application/json' },
          }),
        )
      ).status,
    ).toBe(401);
    const invalid = await post({ ...valid, contactInfo: { ...valid.contactInfo, email: 'nope' } });
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({
      message: 'Enter a valid e-mail address',
      errors: [{ field: 'contactInfo.email', message: 'Enter a valid e-mail address' }],
    });
    const script = await post({ ...valid, socialMedia: { ...valid.socialMedia, facebook: 'javascript:alert(1)' } });
    expect(script.status).toBe(400);
    expect((await post({ ...valid, contactInfo: { ...valid.contactInfo, address: 'x'.repeat(70_000) } })).status).toBe(
      413,
    );
    expect(
      (await post('contactInfo=1', { headers: { 'content-type': 'application/x-www-form-urlencoded' } })).status,
    ).toBe(415);
    expect((await post('[1,2')).status).toBe(400);
    expect(await readSettings()).toEqual(before);
  });

  it('saves valid settings, trims them and serves them publicly at once', async () => {
    const withSource = {
      ...defaultSiteSettings.claims,
      satisfaction: { ...defaultSiteSettings.claims.satisfaction, source: 'Survey of 2026 clients, file S-14' },
    };
    const response = await post({
      ...valid,
      contactInfo: { ...valid.contactInfo, email: '  hello@example.com.au ', replyTo: 'office@example.com.au' },
      claims: withSource,
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      success: true,
      message: 'Settings saved successfully!',
      // No build hook here: the pre-rendered pages take the change with the next deploy.
      rebuild: expect.objectContaining({ state: 'not-configured' }),
    });
    const publicAnswer = await (await settingsHandler(new Request('http://localhost/api/public/site-settings'))).json();
    // Groups the body leaves out (business, partner RTOs, fees) keep their saved values.
    const { business, partnerRtos, prices } = defaultSiteSettings;
    // Staff-only facts stay out of the public answer: the reply-to address for replies from the inbox, and
    // each claim's note of where its figure comes from (visitors see the source written for them).
    const claims = Object.fromEntries(
      Object.entries(withSource).map(([name, claim]) => [name, { ...claim, source: '' }]),
    );
    expect(publicAnswer).toEqual({
      ...valid,
      contactInfo: { ...valid.contactInfo, replyTo: '' },
      socialMedia: { ...valid.socialMedia, youtube: '' },
      business,
      partnerRtos,
      claims,
      prices,
    });
    const adminAnswer = await (
      await settingsHandler(new Request('http://localhost/api/admin/site-settings', auth()))
    ).json();
    expect(adminAnswer).toMatchObject({
      contactInfo: { ...valid.contactInfo, replyTo: 'office@example.com.au' },
      claims: withSource,
      updatedBy: 'dash-admin',
    });
  });
});

describe('dashboard formatting', () => {
  it('shows K from 1,000 and M from 1,000,000 with one decimal', () => {
    expect(formatCount(999)).toBe('999');
    expect(formatCount(1000)).toBe('1.0K');
    expect(formatCount(15_430)).toBe('15.4K');
    expect(formatCount(1_000_000)).toBe('1.0M');
    expect(formatCount(2_345_678)).toBe('2.3M');
  });
  it('marks growth green above zero, red below and neutral when it did not change', () => {
    expect(formatGrowth(12.345)).toEqual({ text: '+12.3%', tone: 'up' });
    expect(formatGrowth(0)).toEqual({ text: 'No change', tone: 'flat' });
    expect(formatGrowth(0.04)).toEqual({ text: 'No change', tone: 'flat' });
    expect(formatGrowth(-4)).toEqual({ text: '-4%', tone: 'down' });
  });
  it('builds initials', () => {
    expect(initials('dana', 'admin')).toBe('DA');
  });
});

describe('return address after login', () => {
  it('only ever returns to an admin page of this site', () => {
    expect(safeNext('/admin/settings')).toBe('/admin/settings');
    expect(safeNext('/admin/blogs?page=2')).toBe('/admin/blogs?page=2');
    for (const bad of [
      'https://evil.example/admin/x',
      '//evil.example/admin/',
      '/about',
      '/admin/login',
      'javascript:alert(1)',
      null,
    ]) {
      expect(safeNext(bad)).toBe('/admin/dashboard');
    }
  });
});
