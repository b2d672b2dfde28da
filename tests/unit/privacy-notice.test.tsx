// @vitest-environment jsdom
// The collection notice and the two optional consents on the three forms (islands only; the e2e suite
// checks the built pages and that a ticked consent is stored).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import ContactForm from '../../src/islands/ContactForm';
import QuoteWizard from '../../src/islands/quote/QuoteWizard';
import { STORAGE_KEY, emptyDraft, saveProgress } from '../../src/islands/quote/steps';

beforeEach(() => sessionStorage.clear());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const rtoBox = () => screen.getByRole('checkbox', { name: /partner RTO that would assess me/ }) as HTMLInputElement;
const marketingBox = () => screen.getByRole('checkbox', { name: /news and offers/ }) as HTMLInputElement;

function expectNotice(purpose: RegExp) {
  const notice = document.querySelector('.privacy-notice')!;
  expect(notice.textContent).toMatch(/RPL Pathways collects these details/);
  expect(notice.textContent).toMatch(purpose);
  expect(notice.textContent).toMatch(
    /stored by Netlify and e-mailed to us and to you by Resend, service providers in the United States/,
  );
  expect(notice.textContent).toMatch(/partner RTO/);
  expect(screen.getByRole('link', { name: /Privacy Policy/ }).getAttribute('href')).toBe('/privacy-policy');
}

describe.each(['contact', 'home'] as const)('%s form', (source) => {
  it('carries the collection notice and two unticked, optional consents', () => {
    render(<ContactForm source={source} />);
    expectNotice(/to answer your inquiry/);
    expect(rtoBox().checked).toBe(false);
    expect(marketingBox().checked).toBe(false);
    expect(rtoBox().required).toBe(false);
    expect(screen.getByText(/Both are optional/).textContent).toMatch(/sent whether or not you tick them/);
  });

  it('sends the consents as booleans: false unless ticked, each on its own', async () => {
    const fetch = vi.fn(() => new Promise<Response>(() => {}));
    vi.stubGlobal('fetch', fetch);
    render(<ContactForm source={source} />);
    for (const [label, value] of Object.entries({
      'First name': 'Jane',
      'Last name': 'Citizen',
      'E-mail': 'jane@example.com',
      Phone: '0412 345 678',
      Message: 'Hello',
    })) {
      fireEvent.change(screen.getByLabelText(label), { target: { value } });
    }
    fireEvent.click(rtoBox());
    fireEvent.click(screen.getByRole('button', { name: /Send Message|Book My Free Consultation/ }));
    const body = JSON.parse((fetch.mock.calls[0] as unknown as [string, RequestInit])[1].body as string);
    expect(body).toMatchObject({ consentPartnerRto: true, consentMarketing: false });
  });
});

describe('free quote', () => {
  const categories = [{ slug: 'civil-construction', name: 'Civil Construction' }];
  const courses = [
    {
      code: 'RII30820',
      title: 'Certificate III in Civil Construction Plant Operations',
      level: 'Certificate III',
      category: 'civil-construction',
    },
  ];
  const next = () => screen.getByRole('button', { name: 'Next' });

  it('shows the notice where the details are collected and the unticked consents on the last step; sends what was ticked', () => {
    const fetch = vi.fn(() => new Promise<Response>(() => {}));
    vi.stubGlobal('fetch', fetch);
    render(<QuoteWizard categories={categories} courses={courses} />);
    expectNotice(/to prepare your quote/);
    fireEvent.change(screen.getByLabelText(/First name/), { target: { value: 'Sam' } });
    fireEvent.change(screen.getByLabelText(/Last name/), { target: { value: 'Lee' } });
    fireEvent.change(screen.getByLabelText(/E-mail/), { target: { value: 'sam@example.com' } });
    fireEvent.change(screen.getByLabelText(/Phone/), { target: { value: '0412 345 678' } });
    fireEvent.click(next());
    fireEvent.click(screen.getByLabelText('Civil Construction'));
    fireEvent.click(next());
    fireEvent.click(screen.getByLabelText(/Plant Operations/));
    fireEvent.click(next());
    fireEvent.change(screen.getByLabelText(/State or territory/), { target: { value: 'NSW' } });
    fireEvent.click(next());

    expect(rtoBox().checked).toBe(false);
    expect(marketingBox().checked).toBe(false);
    fireEvent.click(screen.getByLabelText(/I agree to be bound by the/));
    // Submit works without either consent ...
    expect(screen.getByRole('button', { name: 'Submit Request' })).toHaveProperty('disabled', false);
    fireEvent.click(rtoBox());
    expect(rtoBox().checked).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Submit Request' }));
    const body = JSON.parse((fetch.mock.calls[0] as unknown as [string, RequestInit])[1].body as string);
    expect(body).toMatchObject({ consentPartnerRto: true, consentMarketing: false });
  });

  it('never keeps a consent tick in the saved progress', () => {
    saveProgress(sessionStorage, {
      step: 5,
      draft: { ...emptyDraft(), consentPartnerRto: true, consentMarketing: true },
    });
    expect(JSON.parse(sessionStorage.getItem(STORAGE_KEY)!).draft).toMatchObject({
      consentPartnerRto: false,
      consentMarketing: false,
    });
  });
});
