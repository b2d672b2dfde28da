import { useId, useState, type KeyboardEvent } from 'react';
import { X } from 'lucide-react';

/** Chips added with Enter (trimmed, no blanks, no duplicates), removed with their close button. */
export default function ChipsInput({
  label,
  values,
  onChange,
  placeholder,
  max,
}: {
  label: string;
  values: string[];
  onChange: (values: string[]) => void;
  placeholder: string;
  max: number;
}) {
  const [text, setText] = useState('');
  const id = useId();
  const hintId = `${id}-hint`;

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key !== 'Enter') return;
    event.preventDefault(); // Enter adds a chip; it never submits the form
    const value = text.trim();
    if (!value) return;
    if (values.some((existing) => existing.toLowerCase() === value.toLowerCase()) || values.length >= max) {
      setText('');
      return;
    }
    onChange([...values, value]);
    setText('');
  }

  return (
    <div className="admin-field chips">
      <label htmlFor={id}>{label}</label>
      {values.length > 0 && (
        <ul className="chips__list" role="list" aria-label={label}>
          {values.map((value) => (
            <li key={value} className="chips__chip">
              <span>{value}</span>
              <button
                type="button"
                onClick={() => onChange(values.filter((v) => v !== value))}
                aria-label={`Remove ${label.toLowerCase()} ${value}`}
              >
                <X size={14} aria-hidden="true" />
              </button>
            </li>
          ))}
        </ul>
      )}
      <input
        id={id}
        type="text"
        value={text}
        placeholder={placeholder}
        aria-describedby={hintId}
        maxLength={60}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
      />
      <p id={hintId} className="admin-hint">
        Press Enter to add. {values.length}/{max}
      </p>
    </div>
  );
}
