import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import * as v from 'valibot';
import { ApiError, failureText } from '../api';
import { issuesToFieldErrors } from '../field-errors';
import { useEditConflict } from '../edits/EditConflict';
import { REBUILD_KEY } from '../RebuildStatus';
import { CATALOGUE_KEY } from './data';

/**
 * Saving a catalogue entry that carries a version: the check before sending, errors by field, the 409 when
 * someone saved it first (their version, in the form's shape, for the shared conflict view) and the refresh
 * of the lists after a save. Without `loadTheirs` (a new entry) a 409 is shown like any other refusal.
 */
export function useVersionedSave<T>(firstVersion: number, loadTheirs?: () => Promise<{ theirs: T; version: number }>) {
  const client = useQueryClient();
  const [version, setVersion] = useState(firstVersion);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const conflicts = useEditConflict<T>();
  const [saving, setSaving] = useState(false);

  /** Checks and sends `body`; true once saved, the lists refreshed and `done` run; false with the problems shown. */
  async function submit<R extends { entry: { version: number } }>(request: {
    schema: v.GenericSchema;
    body: unknown;
    send: (checked: unknown) => Promise<R>;
    message: (answer: R) => string;
    done: (answer: R) => void;
  }): Promise<boolean> {
    const checked = v.safeParse(request.schema, request.body);
    if (!checked.success) {
      setErrors(issuesToFieldErrors(checked.issues));
      return false;
    }
    setErrors({});
    setSaving(true);
    try {
      const answer = await request.send(checked.output);
      setVersion(answer.entry.version);
      conflicts.clear();
      toast.success(request.message(answer));
      await Promise.all([
        client.invalidateQueries({ queryKey: CATALOGUE_KEY }),
        client.invalidateQueries({ queryKey: REBUILD_KEY }),
      ]);
      request.done(answer);
      return true;
    } catch (cause) {
      if (cause instanceof ApiError && cause.status === 409 && loadTheirs) {
        conflicts.show({ message: cause.message, ...(await loadTheirs()) });
      } else if (cause instanceof ApiError && cause.errors.length > 0) {
        setErrors(Object.fromEntries(cause.errors.map((e) => [e.field, e.message])));
        toast.error(cause.message);
      } else toast.error(failureText(cause, 'Could not save. Please try again.'));
      return false;
    } finally {
      setSaving(false);
    }
  }

  /** Goes on from their version: the next save is made on top of it. */
  const settle = (open: NonNullable<typeof conflicts.conflict>) => {
    const next = conflicts.settle(open);
    setVersion(next);
    return next;
  };

  return { version, errors, conflict: conflicts.conflict, saving, submit, settle };
}
