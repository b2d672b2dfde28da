// @vitest-environment jsdom
/** Where the focus goes when a blog editor dialog or the link row opens. */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { polyfillDialog } from './helpers/dialog';
import ConfirmDialog from '../../src/admin/blog/ConfirmDialog';
import RichTextEditor from '../../src/admin/blog/RichTextEditor';

beforeAll(polyfillDialog);
afterEach(cleanup);

describe('focus on opening', () => {
  it('a confirmation puts the focus on Cancel, the safe choice, each time it opens', () => {
    const props = { message: 'Delete this blog?', confirmLabel: 'Delete', onConfirm: vi.fn(), onCancel: vi.fn() };
    const { rerender } = render(<ConfirmDialog open={false} {...props} />);
    expect(document.activeElement).toBe(document.body);
    rerender(<ConfirmDialog open {...props} />);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' }));
    rerender(<ConfirmDialog open={false} {...props} />);
    screen.getByRole('button', { name: 'Delete', hidden: true }).focus();
    rerender(<ConfirmDialog open {...props} />);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' }));
  });

  it('the link row puts the focus in its address field', () => {
    render(<RichTextEditor value="<p>Hello</p>" onChange={vi.fn()} labelId="content-label" invalid={false} />);
    fireEvent.click(screen.getByRole('button', { name: 'Link' }));
    expect(document.activeElement).toBe(screen.getByLabelText('Link address'));
  });
});
