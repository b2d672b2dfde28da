import { useId, useState, type ReactNode } from 'react';
import { differingFields, mergeFields, shownValue, type FieldPath } from './conflict-fields';
import './edits.css';

/** Someone saved first: their version (in the form's own shape) and its version number. */
export interface Conflict<T> {
  message: string;
  theirs: T;
  version: number;
}

/** The open conflict of a form; `settle` closes it and gives the version to save on top of. */
export function useEditConflict<T>() {
  const [conflict, setConflict] = useState<Conflict<T> | null>(null);
  return {
    conflict,
    show: setConflict,
    clear: () => setConflict(null),
    settle: (open: Conflict<T>) => {
      setConflict(null);
      return open.version;
    },
  };
}

/**
 * The edit conflict of every admin form (courses, categories, settings, blog posts): the message, then each
 * field that differs with both values side by side, and the choice to keep mine, take theirs, or pick per
 * field. Saving always goes on top of their (newer) version, so nothing is lost without a choice.
 */
export function EditConflict<T>({
  conflict,
  mine,
  label,
  lead = '',
  saving = false,
  onSave,
  onTake,
  children,
}: {
  conflict: Conflict<T>;
  mine: T;
  /** The name a person knows a field by (its label in the form). */
  label: (path: FieldPath) => string;
  /** Put before the server's message (the blog's "Error saving blog: "). */
  lead?: string;
  saving?: boolean;
  /** Save this value (mine, or mine with some of their fields) over `version`. */
  onSave: (value: T, version: number) => void;
  /** Put their version into the form (nothing to save: it is what is stored). */
  onTake: (theirs: T, version: number) => void;
  children?: ReactNode;
}) {
  const id = useId();
  const fields = differingFields(mine, conflict.theirs);
  const [taken, setTaken] = useState<ReadonlySet<FieldPath>>(new Set());
  const choose = (path: FieldPath, theirs: boolean) =>
    setTaken((current) => {
      const next = new Set(current);
      if (theirs) next.add(path);
      else next.delete(path);
      return next;
    });
  const chosen = fields.filter((field) => taken.has(field.path)).length;

  return (
    <div className="admin-banner is-error edit-conflict" data-testid="conflict">
      <p role="alert">
        {lead}
        {conflict.message}
      </p>
      {fields.length === 0 ? (
        <p className="edit-conflict__note">Their version has the same values as yours.</p>
      ) : (
        <>
          <p className="edit-conflict__note" id={`${id}-note`}>
            {fields.length === 1 ? 'One field differs' : `${fields.length} fields differ`}. Choose which value to keep
            for each, then save: the result is saved on top of their version.
          </p>
          <div className="edit-conflict__fields">
            {fields.map((field) => {
              const name = `${id}-${field.path}`;
              return (
                <fieldset key={field.path} className="edit-conflict__field">
                  <legend>{label(field.path)}</legend>
                  <label className="edit-conflict__side">
                    <input
                      type="radio"
                      name={name}
                      checked={!taken.has(field.path)}
                      onChange={() => choose(field.path, false)}
                    />
                    <span className="edit-conflict__who">Yours</span>
                    <span className="edit-conflict__value">{shownValue(field.mine)}</span>
                  </label>
                  <label className="edit-conflict__side">
                    <input
                      type="radio"
                      name={name}
                      checked={taken.has(field.path)}
                      onChange={() => choose(field.path, true)}
                    />
                    <span className="edit-conflict__who">Theirs</span>
                    <span className="edit-conflict__value">{shownValue(field.theirs)}</span>
                  </label>
                </fieldset>
              );
            })}
          </div>
        </>
      )}
      <div className="admin-actions edit-conflict__actions">
        <button
          type="button"
          className="admin-btn admin-btn--primary"
          disabled={saving}
          onClick={() => onSave(mergeFields(mine, conflict.theirs, taken), conflict.version)}
        >
          {chosen === 0 ? 'Save my version anyway' : 'Save with the chosen values'}
        </button>
        <button
          type="button"
          className="admin-btn admin-btn--ghost"
          disabled={saving}
          onClick={() => onTake(conflict.theirs, conflict.version)}
        >
          Take their version
        </button>
        {children}
      </div>
    </div>
  );
}
