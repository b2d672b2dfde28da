/** Dashboard numbers: 1,000 or more as one-decimal K, 1,000,000 or more as M. */
export function formatCount(value: number): string {
  if (value >= 1_000_000) return `${(value / 1_000_000).toFixed(1)}M`;
  if (value >= 1_000) return `${(value / 1_000).toFixed(1)}K`;
  return String(value);
}

/** Growth as shown on a stat card: up (green), down (red), or flat (neutral, "No change") when it did not move. */
export function formatGrowth(value: number): { text: string; tone: 'up' | 'down' | 'flat' } {
  const rounded = Math.round(value * 10) / 10;
  if (rounded === 0) return { text: 'No change', tone: 'flat' };
  return { text: `${rounded > 0 ? '+' : ''}${rounded}%`, tone: rounded > 0 ? 'up' : 'down' };
}

export function initials(firstName: string, lastName: string): string {
  return `${firstName.trim().charAt(0)}${lastName.trim().charAt(0)}`.toUpperCase() || '?';
}
