import type { ContentType } from '../../schemas/blog';
import { FieldError } from './BlogTextField';
import MarkdownEditor from './MarkdownEditor';
import RichTextEditor from './RichTextEditor';

/** The post's content: the HTML editor or Markdown, with the switch between them. */
export default function ContentField({
  id,
  value,
  contentType,
  editorKey,
  error,
  onChange,
  onSwitch,
}: {
  /** The content field's id (`{form id}-content`). */
  id: string;
  value: string;
  contentType: ContentType;
  /** The rich text editor reads its content once; a new key gives it a restored text. */
  editorKey: number;
  error?: string;
  onChange: (value: string) => void;
  onSwitch: (next: ContentType) => void;
}) {
  const describedBy = error ? `${id}-error` : undefined;
  return (
    <div className="admin-field content-field">
      <div className="content-field__head">
        <label id={`${id}-label`} htmlFor={contentType === 'markdown' ? id : undefined}>
          Content <span aria-hidden="true">*</span>
        </label>
        <div className="segmented" role="group" aria-label="Content format">
          <button type="button" aria-pressed={contentType === 'html'} onClick={() => onSwitch('html')}>
            HTML Editor
          </button>
          <button type="button" aria-pressed={contentType === 'markdown'} onClick={() => onSwitch('markdown')}>
            Markdown
          </button>
        </div>
      </div>
      {contentType === 'html' ? (
        <RichTextEditor
          key={`html-${editorKey}`}
          value={value}
          onChange={onChange}
          labelId={`${id}-label`}
          invalid={Boolean(error)}
          describedBy={describedBy}
        />
      ) : (
        <MarkdownEditor
          key="markdown"
          id={id}
          value={value}
          onChange={onChange}
          invalid={Boolean(error)}
          describedBy={describedBy}
        />
      )}
      <FieldError id={id} error={error} />
    </div>
  );
}
