import { useEffect, useId, useRef } from 'react';
import './ConfirmDialog.css';

/**
 * An accessible confirmation (native modal <dialog>: focus moves in, Escape cancels, the page behind is
 * inert). Replaces window.confirm with the same text and a clear choice of buttons.
 */
export default function ConfirmDialog({
  open,
  message,
  confirmLabel,
  cancelLabel = 'Cancel',
  danger = false,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  message: string;
  confirmLabel: string;
  cancelLabel?: string;
  danger?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const messageId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      // Cancel is the safe choice, so it has the focus when the question opens.
      cancel.current?.focus();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      className="confirm-dialog"
      role="alertdialog"
      aria-modal="true"
      aria-labelledby={messageId}
      onCancel={(event) => {
        // A file input's own cancel (picker closed, or the same file picked again) bubbles up to here: only the
        // dialog's own cancel (Escape) asks to close it.
        if (event.target !== event.currentTarget) return;
        event.preventDefault();
        onCancel();
      }}
    >
      <p id={messageId} className="confirm-dialog__message">
        {message}
      </p>
      <div className="confirm-dialog__actions">
        <button type="button" className="admin-btn admin-btn--ghost" onClick={onCancel} ref={cancel}>
          {cancelLabel}
        </button>
        <button
          type="button"
          className={`admin-btn ${danger ? 'admin-btn--danger' : 'admin-btn--primary'}`}
          onClick={onConfirm}
        >
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
