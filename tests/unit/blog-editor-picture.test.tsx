// @vitest-environment jsdom
/**
 * The blog editor keeps what the person is working on: a cancelled (or same-file) file pick does not close the
 * post dialog, and typing right after inserting a picture writes after it instead of replacing it.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Editor } from '@tiptap/core';
import StarterKit from '@tiptap/starter-kit';
import Image from '@tiptap/extension-image';
import { polyfillDialog } from './helpers/dialog';
import Modal from '../../src/admin/blog/Modal';
import ConfirmDialog from '../../src/admin/blog/ConfirmDialog';
import { caretAfterSelection } from '../../src/admin/blog/RichTextEditor';

beforeAll(polyfillDialog);
afterEach(cleanup);

describe('a file input inside a dialog', () => {
  it("cancelling the file picker does not ask the post dialog to close; Escape's cancel still does", () => {
    const onCancel = vi.fn();
    render(
      <Modal className="blog-modal" labelledBy="t" onCancel={onCancel}>
        <h2 id="t">Edit post</h2>
        <input type="file" aria-label="Featured image" />
      </Modal>,
    );
    const input = screen.getByLabelText('Featured image');
    // What the browser fires at the input when the picker is closed, or the same file is picked again.
    fireEvent(input, new Event('cancel', { bubbles: true, cancelable: true }));
    expect(onCancel).not.toHaveBeenCalled();
    fireEvent(input.closest('dialog')!, new Event('cancel', { bubbles: false, cancelable: true }));
    expect(onCancel).toHaveBeenCalledTimes(1);
  });

  it('the same holds for a confirmation dialog', () => {
    const onCancel = vi.fn();
    render(<ConfirmDialog open message="Leave?" confirmLabel="Leave" onConfirm={vi.fn()} onCancel={onCancel} />);
    const dialog = document.querySelector('dialog')!;
    const input = document.createElement('input');
    input.type = 'file';
    dialog.append(input);
    fireEvent(input, new Event('cancel', { bubbles: true, cancelable: true }));
    expect(onCancel).not.toHaveBeenCalled();
  });
});

describe('typing after inserting a picture', () => {
  const picture = { src: '/uploads/blog/abc.webp', alt: 'A framed wall' };
  const editorWith = (content: string) => new Editor({ extensions: [StarterKit, Image], content });

  it('at the end of the post, writes in a new paragraph after the picture', () => {
    const editor = editorWith('<p>Before</p>');
    editor.commands.focus('end');
    editor.chain().setImage(picture).command(caretAfterSelection).run();
    editor.commands.insertContent('After');
    expect(editor.getHTML()).toBe('<p>Before</p><img src="/uploads/blog/abc.webp" alt="A framed wall"><p>After</p>');
    editor.destroy();
  });

  it('in the middle of the post, writes at the start of the next paragraph', () => {
    const editor = editorWith('<p>One</p><p>Two</p>');
    editor.commands.setTextSelection(4); // the end of "One"
    editor.chain().setImage(picture).command(caretAfterSelection).run();
    editor.commands.insertContent('Then ');
    expect(editor.getHTML()).toContain('<img src="/uploads/blog/abc.webp" alt="A framed wall">');
    expect(editor.getHTML()).toContain('<p>Then Two</p>');
    editor.destroy();
  });
});
