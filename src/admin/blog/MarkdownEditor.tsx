import { useMemo, useState } from 'react';
import createDOMPurify from 'dompurify';
import { blogSanitizer, markdownToHtml } from '../../lib/blog-content';
import ToggleButton from './ToggleButton';

let sanitize: ((html: string) => string) | undefined;
/** The same allow-list the server applies, run by DOMPurify in the browser. */
export function sanitizeInBrowser(html: string): string {
  sanitize ??= blogSanitizer(createDOMPurify(window));
  return sanitize(html);
}
export const markdownPreview = (source: string) => sanitizeInBrowser(markdownToHtml(source));

/** Markdown mode: a text area and a 'Show Preview' / 'Hide Preview' toggle. */
export default function MarkdownEditor({
  id,
  value,
  onChange,
  invalid,
  describedBy,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  invalid: boolean;
  describedBy?: string;
}) {
  const [preview, setPreview] = useState(false);
  const html = useMemo(() => (preview ? markdownPreview(value) : ''), [preview, value]);
  return (
    <div className="md-editor">
      <textarea
        id={id}
        value={value}
        rows={14}
        required
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        onChange={(event) => onChange(event.target.value)}
        spellCheck
      />
      <ToggleButton
        className="md-editor__toggle"
        expanded={preview}
        controls={`${id}-preview`}
        onToggle={() => setPreview((shown) => !shown)}
      >
        {preview ? 'Hide Preview' : 'Show Preview'}
      </ToggleButton>
      {preview && (
        <div id={`${id}-preview`} className="md-editor__preview post-preview" aria-label="Preview" role="region">
          {/* biome-ignore lint/security/noDangerouslySetInnerHtml: markdownPreview runs the HTML through DOMPurify with the blog allow-list */}
          <div dangerouslySetInnerHTML={{ __html: html }} />
        </div>
      )}
    </div>
  );
}
