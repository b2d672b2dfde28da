// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import ContactForm, { CONTACT_TEXTS } from '../../src/islands/ContactForm';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const values = {
  'First name': 'Jane',
  'Last name': 'Citizen',
  'E-mail': 'jane@example.com',
  Phone: '0412 345 678',
  Message: 'Ten years as a site supervisor.',
};

function fill(overrides: Partial<Record<keyof typeof values, string>> = {}) {
  for (const [label, value] of Object.entries({ ...values, ...overrides })) {
    fireEvent.change(screen.getByLabelText(label), { target: { value } });
  }
}

/** A fetch that answers when the test says so. */
function deferredFetch() {
  let answer!: (response: Response) => void;
  const fetch = vi.fn(() => new Promise<Response>((resolve) => (answer = resolve)));
  vi.stubGlobal('fetch', fetch);
  return {
    fetch,
    answer: (status: number, body: unknown) => act(async () => answer(new Response(JSON.stringify(body), { status }))),
  };
}

const submit = () =>
  fireEvent.click(screen.getByRole('button', { name: /Send Message|Book My Free Consultation|Submitting/ }));

describe('contact form', () => {
  it('has five labelled, required fields with e-mail and tel inputs', () => {
    render(<ContactForm source="contact" />);
    for (const label of Object.keys(values)) expect(screen.getByLabelText(label)).toHaveProperty('required', true);
    expect(screen.getByLabelText('E-mail')).toHaveProperty('type', 'email');
    expect(screen.getByLabelText('Phone')).toHaveProperty('type', 'tel');
    expect(screen.getByLabelText('Message').tagName).toBe('TEXTAREA');
  });

  it('shows what is missing next to each field, linked for screen readers, and sends nothing', () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    render(<ContactForm source="contact" />);
    fill({ 'First name': '', 'E-mail': 'jane@' });
    submit();
    const first = screen.getByLabelText('First name');
    expect(first.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(first.getAttribute('aria-describedby')!)?.textContent).toBe(
      'First name is required',
    );
    expect(screen.getByText('Enter a valid e-mail address')).toBeTruthy();
    expect(document.activeElement).toBe(first);
    expect(fetch).not.toHaveBeenCalled();
    // Typing clears that field's error.
    fireEvent.input(first, { target: { value: 'J' } });
    expect(first.getAttribute('aria-invalid')).toBeNull();
  });

  it('sends JSON to /api/email/contact, shows Submitting... while busy, then thanks and clears', async () => {
    const { fetch, answer } = deferredFetch();
    render(<ContactForm source="contact" />);
    fill();
    submit();
    const button = screen.getByRole('button', { name: 'Submitting...' });
    expect(button).toHaveProperty('disabled', true);

    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/email/contact');
    expect(init.method).toBe('POST');
    expect(JSON.parse(init.body as string)).toMatchObject({
      firstName: 'Jane',
      lastName: 'Citizen',
      email: 'jane@example.com',
      phone: '0412 345 678',
      message: 'Ten years as a site supervisor.',
      source: 'contact',
      website: '',
      elapsedMs: expect.any(Number),
    });

    await answer(200, { success: true, id: 'x' });
    expect(screen.getByRole('status').textContent).toBe(CONTACT_TEXTS.contact.success);
    for (const label of Object.keys(values)) expect((screen.getByLabelText(label) as HTMLInputElement).value).toBe('');
    expect(screen.getByRole('button', { name: 'Send Message' })).toHaveProperty('disabled', false);
  });

  it.each([
    ['a server error', 500, { success: false, message: 'Your submission could not be saved.' }],
    ['success: false', 200, { success: false }],
  ])('on %s shows the error alert and keeps the fields', async (_name, status, body) => {
    const { answer } = deferredFetch();
    render(<ContactForm source="contact" />);
    fill();
    submit();
    await answer(status, body);
    expect(screen.getByRole('alert').textContent).toContain(
      'There was an error sending your message. Please try again.',
    );
    expect((screen.getByLabelText('Message') as HTMLTextAreaElement).value).toBe(values.Message);
  });

  it('puts the server’s field errors next to the fields', async () => {
    const { answer } = deferredFetch();
    render(<ContactForm source="contact" />);
    fill();
    submit();
    await answer(400, {
      success: false,
      message: 'Enter a valid e-mail address',
      errors: [{ field: 'email', message: 'Enter a valid e-mail address' }],
    });
    expect(screen.getByLabelText('E-mail').getAttribute('aria-invalid')).toBe('true');
  });

  it('shows the error when the network fails', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
    );
    render(<ContactForm source="contact" />);
    fill();
    await act(async () => submit());
    expect(screen.getByRole('alert').textContent).toContain(
      'There was an error sending your message. Please try again.',
    );
  });
});

describe('home consultation form', () => {
  it('really sends, marked as the home form, with the home texts', async () => {
    const { fetch, answer } = deferredFetch();
    render(<ContactForm source="home" />);
    fill();
    submit();
    expect(screen.getByRole('button', { name: 'Submitting...' })).toHaveProperty('disabled', true);
    expect(JSON.parse((fetch.mock.calls[0] as unknown as [string, RequestInit])[1].body as string).source).toBe('home');
    await answer(200, { success: true });
    expect(screen.getByRole('status').textContent).toBe("Thank you! We'll be in touch with you soon.");
    expect((screen.getByLabelText('First name') as HTMLInputElement).value).toBe('');
  });

  it('says "Something went wrong. Please try again." on failure', async () => {
    const { answer } = deferredFetch();
    render(<ContactForm source="home" />);
    fill();
    submit();
    await answer(503, { success: false });
    expect(screen.getByRole('alert').textContent).toContain('Something went wrong. Please try again.');
    expect((screen.getByLabelText('First name') as HTMLInputElement).value).toBe('Jane');
  });
});
