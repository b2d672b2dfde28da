// The copy is the contract: these check the facts the pages must state, straight from content/.
import { describe, expect, it } from 'vitest';
import faq from '../../content/faq.json';
import privacy from '../../content/privacy-policy.json';
import terms from '../../content/terms-conditions.json';
import about from '../../content/about.json';
import howRpl from '../../content/how-rpl-works.json';
import site from '../../content/site.json';

const allText = (value: unknown): string => JSON.stringify(value);

describe('FAQ', () => {
  it('has 20 questions with answers', () => {
    expect(faq.items).toHaveLength(20);
    for (const item of faq.items) {
      expect(item.question.trim()).not.toBe('');
      expect(item.answer.join('').trim()).not.toBe('');
    }
  });
  it('has no duplicate questions', () => {
    expect(new Set(faq.items.map((i) => i.question)).size).toBe(20);
  });
});

describe('Privacy Policy', () => {
  it('has 20 sections, took effect on 22 July 2025 and last changed on 26 November 2026', () => {
    expect(privacy.sections).toHaveLength(20);
    expect(privacy.effectiveDate).toBe('22 July 2025');
    expect(privacy.lastUpdated).toBe('26 November 2026');
  });
  it.each([['7 years'], ['30 days'], ['16']])('states %s', (fact) => {
    expect(allText(privacy)).toContain(fact);
  });
});

describe('Terms & Conditions', () => {
  const text = allText(terms);
  it('was last updated 26 November 2026', () => {
    expect(terms.lastUpdated).toBe('26 November 2026');
  });
  it('says the service is not a registered training organisation and does not issue qualifications', () => {
    expect(text).toMatch(/not a registered training organisation/i);
    expect(text).toMatch(/does not issue qualifications/i);
  });
  it('states timeframes, appeals, refunds and currency', () => {
    expect(text).toContain('4-8 weeks');
    expect(text).toContain('30 days');
    expect(text).toMatch(/Australian dollars/i);
  });
  it("finding 9: refers refunds to the delivering RTO's policy, keeps Australian Consumer Law rights and says how to complain about this service", () => {
    for (const copy of [text, allText(faq)]) {
      expect(copy).not.toMatch(/non-refundable/i);
      expect(copy).toMatch(/refund policy of the partner RTO that assesses you/);
      expect(copy).toMatch(
        /Australian Consumer Law are not affected|Australian Consumer Law; those rights are not affected/,
      );
      expect(copy).toMatch(
        /consumer protection agency \(fair trading or consumer affairs office\) of your state or territory/,
      );
    }
    const complaints = terms.sections.find((section) => section.title === 'Complaints About Our Service');
    expect(complaints?.paragraphs.join(' ')).toMatch(/tell us first/);
  });
});

describe('About and How RPL Works', () => {
  it('finding 4: counts qualifications and industries from the catalogue; rates and ratings are claims', () => {
    expect(about.stats.map((s) => s.counted ?? s.claim)).toEqual([
      'courses',
      'categories',
      'successRate',
      'satisfaction',
    ]);
  });
  it('states that most clients finish within 4-8 weeks', () => {
    expect(about.completionNote).toMatch(/most clients finish within 4-8 weeks/i);
  });
  it('lists the six benefits and the exact call to action', () => {
    expect(howRpl.benefits.items).toHaveLength(6);
    expect(howRpl.cta.heading).toBe('Take The FREE 60 Second Skills Check Now!!');
  });
  it('carries the home and footer disclaimer', () => {
    expect(site.disclaimer).toMatch(/not a registered training organisation.*does not issue qualifications/i);
  });
});

describe('Entry requirements as the register states them', () => {
  it('finding 9: TAE40122 states vocational competency in the area to be taught as its entry requirement, not an expectation', async () => {
    const { default: details } = await import('../../content/course-details/early-childhood-education.json');
    const tae = details.find((course) => course.code === 'TAE40122');
    expect(tae?.entryRequirements).toMatch(/^Entry requirement on the National Register: /);
    expect(tae?.entryRequirements).toContain('vocational competency in the area you propose to teach and assess');
    expect(tae?.entryRequirements).not.toMatch(/typically expected/i);
  });
});
