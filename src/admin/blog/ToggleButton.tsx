import type { ReactNode } from 'react';

/** A ghost button that shows or hides the panel with the id `controls`. */
export default function ToggleButton({
  className,
  expanded,
  controls,
  onToggle,
  children,
}: {
  className: string;
  expanded: boolean;
  controls: string;
  onToggle: () => void;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      className={`admin-btn admin-btn--ghost ${className}`}
      aria-expanded={expanded}
      aria-controls={controls}
      onClick={onToggle}
    >
      {children}
    </button>
  );
}
