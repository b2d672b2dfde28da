import { useEffect, useRef, useState } from 'react';
import ConfirmDialog from '../blog/ConfirmDialog';
import './edits.css';

const LEAVE = 'You have unsaved changes. Leave without saving them?';

/** A plain left click on a link that loads another page in this tab (not a new tab, a download or an anchor). */
function leavesPage(link: HTMLAnchorElement, event: MouseEvent): boolean {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
    return false;
  if ((link.target && link.target !== '_self') || link.hasAttribute('download')) return false;
  const to = new URL(link.href, location.href);
  return !(to.origin === location.origin && to.pathname === location.pathname && to.search === location.search);
}

/**
 * The one guard of every admin form with unsaved changes (courses, categories, settings, blog posts): while
 * `dirty`, closing or reloading the tab asks (the browser's own question), a click on any link asks here
 * first, and the form's own ways out (Back to the list, Cancel) go through `confirmLeave`. Staying keeps
 * every edit; leaving is a choice. Render `dialog` once in the form.
 */
export function useLeaveGuard(dirty: boolean, message = LEAVE) {
  const [pending, setPending] = useState<(() => void) | null>(null);
  const leaving = useRef(false);

  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => {
      if (!leaving.current) event.preventDefault();
    };
    const onClick = (event: MouseEvent) => {
      const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
      if (!(link instanceof HTMLAnchorElement) || !leavesPage(link, event)) return;
      event.preventDefault();
      setPending(() => () => {
        leaving.current = true;
        location.assign(link.href);
      });
    };
    addEventListener('beforeunload', warn);
    // Capture: asked before the link (or anything on it) acts.
    document.addEventListener('click', onClick, true);
    return () => {
      removeEventListener('beforeunload', warn);
      document.removeEventListener('click', onClick, true);
    };
  }, [dirty]);

  /** Runs `go` at once when nothing is unsaved, else after the person confirms. */
  const confirmLeave = (go: () => void) => {
    if (dirty) setPending(() => go);
    else go();
  };

  const dialog = (
    <ConfirmDialog
      open={pending !== null}
      message={message}
      confirmLabel="Discard changes"
      cancelLabel="Keep editing"
      danger
      onConfirm={() => {
        const go = pending;
        setPending(null);
        go?.();
      }}
      onCancel={() => setPending(null)}
    />
  );
  return { confirmLeave, dialog };
}
