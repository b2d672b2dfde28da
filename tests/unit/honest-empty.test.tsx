// @vitest-environment jsdom
import { createRef } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { QuoteResult } from '../../src/islands/quote/QuoteResult';
import SearchResults from '../../src/islands/SearchResults';
import { QuoteFields } from '../../src/admin/inbox/QuoteFields';
import { composeMail } from '../../src/server/mail-messages';
import { matchCodes, resultFor } from '../../src/server/quote-result';
import { suggest } from '../../src/lib/course-search';
import { LEVELS } from '../../src/lib/catalogue';
import { repositoryCatalogue } from '../../src/catalogue/index';
import type { InquiryRecord } from '../../src/server/inquiries';
import { storedContact, storedQuote } from './helpers/inquiries';

const {
  summaries,
  api: { categories },
} = repositoryCatalogue();

afterEach(cleanup);

const NO_QUALIFICATION = "We don't list a qualification for that trade yet.";
const PHONE = '1300 000 111';

/** What an electrician who ticked "Not sure" is matched to, worked out as the quote function does. */
const electrician = {
  selectedCourses: [],
  selectedCategories: ['civil-construction'],
  notSure: true,
  experience: 'A grade electrician trained in UK, 12 years of commercial and domestic wiring',
  goals: 'get my trade recognised in Australia',
};

describe('finding 1: zero suggestions is a valid answer everywhere, and it is the honest one', () => {
  it('the quote result screen says we list no qualification for that trade, with the phone and a call-back, and suggests no trade', () => {
    const items = resultFor(repositoryCatalogue(), matchCodes(repositoryCatalogue(), electrician), []);
    expect(items).toEqual([]);
    render(<QuoteResult headingRef={createRef()} name="Sam" reference="R1" items={items} notSure phone={PHONE} />);
    expect(screen.getByText(NO_QUALIFICATION)).toBeTruthy();
    expect(screen.getByRole('link', { name: `Call ${PHONE}` }).getAttribute('href')).toBe('tel:1300000111');
    expect(screen.getByRole('link', { name: 'Request a call back' }).getAttribute('href')).toBe(
      '/contact#consult-title',
    );
    expect(screen.queryByText('Suggested from your experience')).toBeNull();
    expect(screen.queryByText(/Carpentry|Tiling|Painting/)).toBeNull();
  });

  it('the acknowledgement e-mail repeats the honest answer and the staff e-mail records that none was shown', () => {
    const record = storedContact({
      kind: 'quote',
      source: 'quote',
      message: undefined,
      quote: storedQuote({ ...electrician, courses: [], matches: matchCodes(repositoryCatalogue(), electrician) }),
    } as Partial<InquiryRecord>);
    const ack = composeMail(record, 'ack', { catalogue: repositoryCatalogue(), phone: PHONE });
    expect(ack.text).toContain(NO_QUALIFICATION);
    expect(ack.text).toContain(PHONE);
    expect(ack.text).toContain('/contact#consult-title');
    expect(ack.text).not.toMatch(/CPC\d/);
    expect(ack.html).toContain('href="tel:1300000111"');
    expect(composeMail(record, 'staff', { catalogue: repositoryCatalogue() }).text).toContain(
      `Indicative result shown:\nNone: told "${NO_QUALIFICATION.slice(0, -1)}"`,
    );
  });

  it('the inbox detail shows that no qualification was suggested', () => {
    render(<QuoteFields quote={storedQuote({ ...electrician, courses: [], matches: [] })} />);
    expect(screen.getByText('Indicative result shown').nextElementSibling?.textContent).toBe(
      `None: told "${NO_QUALIFICATION.slice(0, -1)}"`,
    );
  });

  it('the search page answers a trade the catalogue lacks honestly, with the phone, a call-back and the free quote', () => {
    render(
      <SearchResults
        initialQuery={{ search: 'real estate agent' }}
        initialResults={[]}
        initialTotal={0}
        categories={[]}
        levels={[]}
        phone={PHONE}
      />,
    );
    expect(screen.getByText(NO_QUALIFICATION)).toBeTruthy();
    expect(screen.getByRole('link', { name: `Call ${PHONE}` })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Request a call back' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Get a Free Quote' }).getAttribute('href')).toBe(
      '/free-quote?search=real+estate+agent',
    );
  });

  it('the hero offers no qualification for a trade the catalogue lacks', () => {
    for (const text of ['electrician', 'real estate agent', 'welder'])
      expect(suggest(text, categories, LEVELS, summaries), text).toEqual([]);
    expect(suggest('carer', categories, LEVELS, summaries)[0]).toMatchObject({ code: 'CHC33021' });
  });
});
