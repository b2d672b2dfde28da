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
  it('has 20 sections and the 22 July 2025 dates', () => {
    expect(privacy.sections).toHaveLength(20);
    expect(privacy.effectiveDate).toBe('22 July 2025');
    expect(privacy.lastUpdated).toBe('22 July 2025');
  });
  it.each([['7 years'], ['26 months'], ['2 years'], ['30 days'], ['16']])('states %s', (fact) => {
    expect(allText(privacy)).toContain(fact);
  });
});

describe('Terms & Conditions', () => {
  const text = allText(terms);
  it('was last updated 22 July 2025', () => {
    expect(terms.lastUpdated).toBe('22 July 2025');
  });
  it('says the service is not a registered training organisation and does not issue qualifications', () => {
    expect(text).toMatch(/not a registered training organisation/i);
    expect(text).toMatch(/does not issue qualifications/i);
  });
  it('states timeframes, appeals, refunds and currency', () => {
    expect(text).toContain('4-8 weeks');
    expect(text).toContain('30 days');
    expect(text).toMatch(/non-refundable once assessment starts/i);
    expect(text).toMatch(/Australian dollars/i);
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
