// @vitest-environment jsdom
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { polyfillDialog } from './helpers/dialog';
import SearchModal from '../../src/islands/SearchModal';

beforeAll(polyfillDialog);
afterEach(cleanup);

function setup() {
  const assign = vi.fn();
  vi.stubGlobal('location', { ...window.location, assign });
  render(<SearchModal />);
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
});
