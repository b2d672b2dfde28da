// @vitest-environment jsdom
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { repositoryCatalogue } from '../../src/catalogue/index';
import { polyfillDialog } from './helpers/dialog';
import SearchModal from '../../src/islands/SearchModal';
import { supportInvokers } from '../../src/lib/invokers';

const { summaries } = repositoryCatalogue();

beforeAll(() => {
  polyfillDialog();
  // jsdom has no invoker commands: the site script's stand-in opens and closes the dialog, as in such browsers.
  expect(supportInvokers(document)).toBe(true);
});
afterEach(cleanup);

// The searchable catalogue, as the island fetches it from the built site.
vi.mock('../../src/lib/search-data', () => ({ loadSearchCourses: async () => summaries }));

function setup(phone?: string) {
  const assign = vi.fn();
  vi.stubGlobal('location', { ...window.location, assign });
  render(<SearchModal phone={phone} />);
  fireEvent.click(screen.getByRole('button', { name: 'Search qualifications' }));
  const input = screen.getByPlaceholderText('Search for your qualification here...') as HTMLInputElement;
  return { assign, input, dialog: input.closest('dialog')! };
}

describe('header search modal', () => {
  it('opens titled "Find Your Qualification" with the hint', () => {
    const { dialog } = setup();
    expect(dialog.open).toBe(true);
    expect(screen.getByRole('heading', { name: 'Find Your Qualification' })).toBeTruthy();
    expect(screen.getByText('Enter a qualification name, code or keyword to find relevant courses')).toBeTruthy();
  });

  it('does nothing for whitespace-only input', () => {
    const { assign, input, dialog } = setup();
    fireEvent.change(input, { target: { value: '    ' } });
    fireEvent.submit(input.form!);
    expect(assign).not.toHaveBeenCalled();
    expect(dialog.open).toBe(true);
  });

  it('goes to /search with the trimmed term, closes and clears', () => {
    const { assign, input, dialog } = setup();
    fireEvent.change(input, { target: { value: '  Diploma of Nursing ' } });
    fireEvent.submit(input.form!);
    expect(assign).toHaveBeenCalledWith('/search?search=Diploma+of+Nursing');
    expect(dialog.open).toBe(false);
    expect(input.value).toBe('');
  });

  it('closes on the close button and on a backdrop click, not on a click inside', () => {
    const { dialog, input } = setup();
    fireEvent.click(input);
    expect(dialog.open).toBe(true);
    fireEvent.click(dialog);
    expect(dialog.open).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Search qualifications' }));
    fireEvent.click(screen.getByRole('button', { name: 'Close search' }));
    expect(dialog.open).toBe(false);
  });

  it('finding 4: invites jobs beside the hint, and says as you type that nothing matches, with the quote and the phone', async () => {
    const { input, assign } = setup('(02) 5550 1234');
    expect(screen.getByText('Try: carpenter, aged care, forklift')).toBeTruthy();
    fireEvent.change(input, { target: { value: 'carpenter' } });
    await vi.waitFor(() => expect(screen.getByRole('list', { name: 'Matching qualifications' })).toBeTruthy());
    expect(screen.getByText(/No qualification matches/, { ignore: '' }).closest('[hidden]')).not.toBeNull();
    fireEvent.change(input, { target: { value: 'underwater basket weaving' } });
    const status = screen.getByRole('status');
    await vi.waitFor(() =>
      expect(status.textContent).toContain('No qualification matches “underwater basket weaving” yet.'),
    );
    expect(within(status).getByRole('link', { name: 'get a free quote' }).getAttribute('href')).toBe(
      '/free-quote?search=underwater+basket+weaving',
    );
    expect(within(status).getByRole('link', { name: '(02) 5550 1234' }).getAttribute('href')).toBe('tel:0255501234');
    expect(status.querySelector('[hidden]')).toBeNull();
    expect(assign).not.toHaveBeenCalled();
  });
});
