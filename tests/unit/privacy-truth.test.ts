/**
 * Privacy that says what the site really does: the collection notice names the providers and where they
 * are, the policy's date changes with its text, the policy says no cookies and no analytics (true of the
 * code), and each inquiry keeps the version of the wording the visitor was shown.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import privacy from '../../content/privacy-policy.json';
import { CONSENT_LABELS, NOTICE_PURPOSES, noticeText } from '../../src/lib/collection-notice';
import { CONSENT_VERSION } from '../../src/server/consent-version';
import { startStores } from './helpers/stores';
import { storeContactInquiry } from './helpers/inquiries';
import { getInquiry } from '../../src/server/inquiries';
import { inquiriesToCsv } from '../../src/server/inquiry-csv';

/** As kept beside `lastUpdated`: the first 16 hex digits of a SHA-256 of the policy without the date and the hash. */
function contentHash(doc: Record<string, unknown>): string {
  const { lastUpdated: _date, contentHash: _hash, ...text } = doc;
  return createHash('sha256').update(JSON.stringify(text)).digest('hex').slice(0, 16);
}

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && /\.(ts|tsx|mts|astro|mjs)$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

describe('the collection notice', () => {
  it.each(NOTICE_PURPOSES)(
    'finding 7: names the United States providers, what happens without the details and what the policy explains (%s)',
    (purpose) => {
      const text = noticeText(purpose);
      expect(text).toContain('stored by Netlify');
      expect(text).toContain('by Resend, service providers in the United States');
      expect(text).toMatch(/required: without them we cannot (answer you|prepare your quote)\./);
      expect(text).toContain('explains how to access or correct your details and how to make a complaint');
    },
  );
});

describe('the privacy policy', () => {
  it('finding 7: its last-updated date moves with its text (the kept hash matches the text)', () => {
    expect(
      privacy.contentHash,
      `content/privacy-policy.json changed. Set "lastUpdated" to the day the text changed and "contentHash" to "${contentHash(privacy)}".`,
    ).toBe(contentHash(privacy));
    expect(privacy.lastUpdated).toMatch(/^\d{1,2} [A-Z][a-z]+ \d{4}$/);
  });

  it('finding 7: says the site sets no cookies and loads no analytics, which the code bears out', async () => {
    const text = JSON.stringify(privacy);
    expect(text).toContain('Our website sets no cookies.');
    expect(text).toContain('loads no analytics, advertising or tracking tools');
    expect(text).not.toMatch(/26 months|cookies last up to 2 years|We use cookies|We use website analytics/);
    // The staff sign-in token is the only local storage outside the quote form's session storage.
    expect(text).toContain("sign-in token in their browser's local storage");
    for (const file of [...(await sourceFiles('src')), ...(await sourceFiles('netlify/functions'))]) {
      const code = await readFile(file, 'utf8');
      // Setting a cookie in a page script or in a response (as a header key or through a setter); removing one is fine.
      expect(code, file).not.toMatch(
        /document\.cookie|['"]set-cookie['"]\s*:|\.(set|append)\(\s*['"]set-cookie|cookies\.set\(|googletagmanager|gtag\(|google-analytics|plausible/i,
      );
    }
  });

  it('finding 7: names the provider of the map tiles the contact page loads on request', async () => {
    const map = await readFile('src/pages/_components/ContactMap.astro', 'utf8');
    expect(map).toContain('https://www.openstreetmap.org/export/embed.html');
    expect(JSON.stringify(privacy)).toContain(
      'The OpenStreetMap Foundation, only if you choose to load the interactive map',
    );
  });
});

describe('the consent wording kept with each inquiry', () => {
  let blobs: Awaited<ReturnType<typeof startStores>>;
  beforeAll(async () => {
    blobs = await startStores();
  });
  afterAll(() => blobs.stop());

  it('finding 7: each inquiry stores the version (hash) of the notice and consent texts it was sent with', async () => {
    const expected = createHash('sha256')
      .update(
        JSON.stringify({
          notices: NOTICE_PURPOSES.map((purpose) => noticeText(purpose)),
          link: 'Read our Privacy Policy.',
          consents: CONSENT_LABELS,
        }),
      )
      .digest('hex')
      .slice(0, 16);
    expect(CONSENT_VERSION).toBe(expected);
    const { id } = await storeContactInquiry({ email: 'version@example.com' });
    const stored = await getInquiry(id);
    expect(stored?.consentVersion).toBe(CONSENT_VERSION);
    expect(inquiriesToCsv([stored!])).toContain(`"${CONSENT_VERSION}"`);
  });
});
