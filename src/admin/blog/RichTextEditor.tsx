import { lazy, Suspense, useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useEditor, useEditorState, EditorContent, type CommandProps } from '@tiptap/react';
import { TextSelection } from '@tiptap/pm/state';
import StarterKit from '@tiptap/starter-kit';
import Image from '@tiptap/extension-image';
import { Bold, Heading2, Heading3, ImagePlus, Italic, Link2, List, ListOrdered, Quote, Underline } from 'lucide-react';
import { isAllowedLink, LINK_PROTOCOLS } from '../../lib/blog-content';

const MediaPicker = lazy(() => import('./MediaPicker'));

export const LINK_RULE = `Use a web address (https://...), an address on this site (/courses/...) or ${LINK_PROTOCOLS.filter((p) => !p.startsWith('http')).join(', ')} links.`;

/**
 * HTML editor on tiptap (ProseMirror): a toolbar of toggle buttons (their state announced) for bold,
 * italic, underline, headings, quotes and lists, plus links (held to the sanitiser's address rules) and
 * pictures from the upload store. Its CSS is ours (injectCSS off), so the strict Content-Security-Policy
 * needs no inline style.
 */
export default function RichTextEditor({
  value,
  onChange,
  labelId,
  invalid,
  describedBy,
}: {
  value: string;
  onChange: (html: string) => void;
  labelId: string;
  invalid: boolean;
  describedBy?: string;
}) {
  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        heading: { levels: [2, 3] },
        link: {
          openOnClick: false,
          autolink: true,
          protocols: [...LINK_PROTOCOLS],
          isAllowedUri: (url) => isAllowedLink(url),
          HTMLAttributes: { rel: 'noopener noreferrer', target: null },
        },
      }),
      Image.configure({ inline: false, allowBase64: false }),
    ],
    content: value,
    injectCSS: false,
    immediatelyRender: true,
    shouldRerenderOnTransaction: false,
    editorProps: { attributes: attributes(labelId, invalid, describedBy) },
    onUpdate: ({ editor: current }) => onChange(current.isEmpty ? '' : current.getHTML()),
  });
  useEffect(() => {
    editor?.setOptions({ editorProps: { attributes: attributes(labelId, invalid, describedBy) } });
  }, [editor, labelId, invalid, describedBy]);

  const state = useEditorState({
    editor,
    selector: ({ editor: current }) => ({
      bold: current?.isActive('bold') ?? false,
      italic: current?.isActive('italic') ?? false,
      underline: current?.isActive('underline') ?? false,
      bulletList: current?.isActive('bulletList') ?? false,
      orderedList: current?.isActive('orderedList') ?? false,
      h2: current?.isActive('heading', { level: 2 }) ?? false,
      h3: current?.isActive('heading', { level: 3 }) ?? false,
      blockquote: current?.isActive('blockquote') ?? false,
      link: current?.isActive('link') ?? false,
    }),
  });
  const [linkOpen, setLinkOpen] = useState(false);
  const [linkValue, setLinkValue] = useState('');
  const [linkError, setLinkError] = useState('');
  const [picking, setPicking] = useState(false);
  const linkId = useId();
  const linkInput = useRef<HTMLInputElement>(null);
  // The address field takes the focus when the link row opens.
  useEffect(() => {
    if (linkOpen) linkInput.current?.focus();
  }, [linkOpen]);

  function openLink() {
    setLinkValue((editor?.getAttributes('link').href as string | undefined) ?? '');
    setLinkError('');
    setLinkOpen(true);
  }

  function applyLink() {
    const href = linkValue.trim();
    if (!href) {
      editor?.chain().focus().extendMarkRange('link').unsetLink().run();
      setLinkOpen(false);
      return;
    }
    if (!isAllowedLink(href)) {
      setLinkError(`This address cannot be linked. ${LINK_RULE}`);
      return;
    }
    const chain = editor?.chain().focus().extendMarkRange('link');
    if (editor?.state.selection.empty && !editor.isActive('link'))
      chain?.insertContent({ type: 'text', text: href, marks: [{ type: 'link', attrs: { href } }] }).run();
    else chain?.setLink({ href }).run();
    setLinkOpen(false);
  }

  function onLinkKey(event: KeyboardEvent<HTMLInputElement>) {
    // Enter applies (the editor sits inside the post's form, which must not be submitted from here).
    if (event.key === 'Enter') {
      event.preventDefault();
      applyLink();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      setLinkOpen(false);
    }
  }

  const tools = [
    { key: 'bold', label: 'Bold', Icon: Bold, run: () => editor?.chain().focus().toggleBold().run() },
    { key: 'italic', label: 'Italic', Icon: Italic, run: () => editor?.chain().focus().toggleItalic().run() },
    {
      key: 'underline',
      label: 'Underline',
      Icon: Underline,
      run: () => editor?.chain().focus().toggleUnderline().run(),
    },
    {
      key: 'bulletList',
      label: 'Bulleted list',
      Icon: List,
      run: () => editor?.chain().focus().toggleBulletList().run(),
    },
    {
      key: 'orderedList',
      label: 'Numbered list',
      Icon: ListOrdered,
      run: () => editor?.chain().focus().toggleOrderedList().run(),
    },
    {
      key: 'h2',
      label: 'Heading',
      Icon: Heading2,
      run: () => editor?.chain().focus().toggleHeading({ level: 2 }).run(),
    },
    {
      key: 'h3',
      label: 'Subheading',
      Icon: Heading3,
      run: () => editor?.chain().focus().toggleHeading({ level: 3 }).run(),
    },
    { key: 'blockquote', label: 'Quote', Icon: Quote, run: () => editor?.chain().focus().toggleBlockquote().run() },
    { key: 'link', label: 'Link', Icon: Link2, run: openLink },
  ] as const;

  return (
    <div className={`rte${invalid ? ' is-invalid' : ''}`}>
      <div className="rte__toolbar" role="toolbar" aria-label="Formatting">
        {tools.map(({ key, label, Icon, run }) => (
          <button
            key={key}
            type="button"
            className="rte__tool"
            aria-label={label}
            title={label}
            aria-pressed={key === 'link' ? undefined : (state?.[key] ?? false)}
            aria-expanded={key === 'link' ? linkOpen : undefined}
            // A click keeps the focus (and the caret) in the text, so what is typed next lands there at once,
            // not on the button until the editor takes the focus back on the next frame.
            onMouseDown={key === 'link' ? undefined : (event) => event.preventDefault()}
            onClick={run}
          >
            <Icon size={18} aria-hidden="true" />
          </button>
        ))}
        <button
          type="button"
          className="rte__tool"
          aria-label="Image"
          title="Image"
          aria-haspopup="dialog"
          onClick={() => setPicking(true)}
        >
          <ImagePlus size={18} aria-hidden="true" />
        </button>
      </div>
      {linkOpen && (
        <div className="rte__link">
          <label htmlFor={linkId}>Link address</label>
          <div className="rte__link-row">
            <input
              id={linkId}
              type="text"
              inputMode="url"
              value={linkValue}
              placeholder="https://..."
              ref={linkInput}
              aria-invalid={linkError ? true : undefined}
              aria-describedby={linkError ? `${linkId}-error` : `${linkId}-hint`}
              onChange={(event) => {
                setLinkValue(event.target.value);
                setLinkError('');
              }}
              onKeyDown={onLinkKey}
            />
            <button type="button" className="admin-btn admin-btn--primary" onClick={applyLink}>
              Apply
            </button>
            <button type="button" className="admin-btn admin-btn--ghost" onClick={() => setLinkOpen(false)}>
              Cancel
            </button>
          </div>
          {linkError ? (
            <p id={`${linkId}-error`} className="admin-error" role="alert">
              {linkError}
            </p>
          ) : (
            <p id={`${linkId}-hint`} className="admin-hint">
              Select text first to link it, or leave the address empty to remove a link.
            </p>
          )}
        </div>
      )}
      <EditorContent editor={editor} />
      {picking && (
        <Suspense fallback={null}>
          <MediaPicker
            onClose={() => setPicking(false)}
            onInsert={(image) => {
              setPicking(false);
              // The caret goes after the picture, not onto it, so the next key typed cannot replace it.
              editor?.chain().focus().setImage(image).command(caretAfterSelection).run();
            }}
          />
        </Suspense>
      )}
    </div>
  );
}

/** Puts a text caret just after the selected node, adding an empty paragraph when nothing follows it. */
export function caretAfterSelection({ tr, editor }: CommandProps): boolean {
  const end = tr.selection.to;
  const next = TextSelection.findFrom(tr.doc.resolve(end), 1, true);
  if (next) tr.setSelection(next);
  else {
    tr.insert(end, editor.schema.nodes.paragraph!.create());
    tr.setSelection(TextSelection.create(tr.doc, end + 1));
  }
  return true;
}

function attributes(labelId: string, invalid: boolean, describedBy?: string): Record<string, string> {
  return {
    class: 'rte__content',
    role: 'textbox',
    'aria-multiline': 'true',
    'aria-labelledby': labelId,
    'aria-required': 'true',
    ...(invalid ? { 'aria-invalid': 'true' } : {}),
    ...(describedBy ? { 'aria-describedby': describedBy } : {}),
  };
}
