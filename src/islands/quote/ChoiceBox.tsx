import type { InputHTMLAttributes, ReactNode } from 'react';

/** One tick box of a list of choices, labelled by what it stands for. */
export function ChoiceBox({
  className = 'choice',
  children,
  ...box
}: { className?: string; children: ReactNode } & Pick<
  InputHTMLAttributes<HTMLInputElement>,
  'name' | 'value' | 'checked' | 'onChange'
>) {
  return (
    <li>
      <label className={className}>
        <input type="checkbox" {...box} />
        {children}
      </label>
    </li>
  );
}
