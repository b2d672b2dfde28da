import type { ReactNode } from 'react';

/** One tick box of a list of choices, labelled by what it stands for. */
export function ChoiceBox({
  className = 'choice',
  name,
  value,
  checked,
  onChange,
  children,
}: {
  className?: string;
  name: string;
  value: string;
  checked: boolean;
  onChange: () => void;
  children: ReactNode;
}) {
  return (
    <li>
      <label className={className}>
        <input type="checkbox" name={name} value={value} checked={checked} onChange={onChange} />
        {children}
      </label>
    </li>
  );
}
