import { useEffect } from 'react';
import { useEditor, useEditorState, EditorContent } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { Bold, Italic, List, ListOrdered, Underline } from 'lucide-react';

/**
 * SPEC 2.15 HTML editor on tiptap (ProseMirror): toolbar with bold, italic, underline, bulleted and
 * numbered lists, each a toggle button with its state announced. Its CSS is ours (injectCSS off),
 * so the strict Content-Security-Policy needs no inline style.
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
        link: { openOnClick: false, autolink: true, protocols: ['http', 'https', 'mailto', 'irc', 'ircs', 'xmpp'], HTMLAttributes: { rel: 'noopener noreferrer', target: null } },
      }),
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
    }),
  });

  const tools = [
    { key: 'bold', label: 'Bold', Icon: Bold, run: () => editor?.chain().focus().toggleBold().run() },
    { key: 'italic', label: 'Italic', Icon: Italic, run: () => editor?.chain().focus().toggleItalic().run() },
    { key: 'underline', label: 'Underline', Icon: Underline, run: () => editor?.chain().focus().toggleUnderline().run() },
    { key: 'bulletList', label: 'Bulleted list', Icon: List, run: () => editor?.chain().focus().toggleBulletList().run() },
    { key: 'orderedList', label: 'Numbered list', Icon: ListOrdered, run: () => editor?.chain().focus().toggleOrderedList().run() },
  ] as const;

  return (
    <div className={`rte${invalid ? ' is-invalid' : ''}`}>
      <div className="rte__toolbar" role="toolbar" aria-label="Formatting">
        {tools.map(({ key, label, Icon, run }) => (
          <button key={key} type="button" className="rte__tool" aria-label={label} title={label} aria-pressed={state?.[key] ?? false} onClick={run}>
            <Icon size={18} aria-hidden="true" />
          </button>
        ))}
      </div>
      <EditorContent editor={editor} />
    </div>
  );
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
