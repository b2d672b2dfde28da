import { BLOG_LIMITS } from '../../schemas/blog';
import { FieldError } from './BlogTextField';

/** The post's address under /blog/: made from the title until chosen, kept once published. */
export default function SlugField({
  id,
  value,
  everPublished,
  error,
  onChange,
}: {
  /** The field's id (`{form id}-slug`). */
  id: string;
  value: string;
  everPublished: boolean;
  error?: string;
  onChange: (value: string) => void;
}) {
  return (
    <div className="admin-field">
      <label htmlFor={id}>Address</label>
      <div className="slug-field">
        <span className="slug-field__prefix" aria-hidden="true">
          /blog/
        </span>
        <input
          id={id}
          type="text"
          value={value}
          maxLength={BLOG_LIMITS.slug}
          spellCheck={false}
          autoCapitalize="off"
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
          onChange={(event) => onChange(event.target.value)}
        />
      </div>
      <p id={`${id}-hint`} className="admin-hint">
        {everPublished
          ? 'This post has been published, so its address stays as it is. If you change it, the old address keeps working and sends readers to the new one.'
          : 'Made from the title until the post is first published. Lower-case letters, digits and hyphens.'}
      </p>
      <FieldError id={id} error={error} />
    </div>
  );
}
