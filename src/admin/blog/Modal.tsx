import { useEffect, useRef, type ReactNode } from 'react';

/** A native modal <dialog>, open while it is mounted; Escape asks `onCancel` instead of closing it outright. */
export default function Modal({
  className,
  labelledBy,
  onCancel,
  children,
}: {
  className: string;
  labelledBy: string;
  onCancel: () => void;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    ref.current?.showModal();
  }, []);
  return (
    <dialog
      ref={ref}
      className={className}
      aria-labelledby={labelledBy}
      onCancel={(event) => {
        // A file input's own cancel (picker closed, or the same file picked again) bubbles up to here: only the
        // dialog's own cancel (Escape) asks to close it.
        if (event.target !== event.currentTarget) return;
        event.preventDefault();
        onCancel();
      }}
    >
      {children}
    </dialog>
  );
}
