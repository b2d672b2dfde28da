/** The status line shown while something loads. */
export function Loading({ text = 'Loading...' }: { text?: string }) {
  return (
    <p className="admin-loading" role="status">
      {text}
    </p>
  );
}
