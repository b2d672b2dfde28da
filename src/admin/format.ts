/** SPEC 2.14: 1,000 or more as one-decimal K, 1,000,000 or more as M. */
export function formatCount(value: number): string {
  if (value >= 1_000_000) return `${(value / 1_000_000).toFixed(1)}M`;
  if (value >= 1_000) return `${(value / 1_000).toFixed(1)}K`;
  return String(value);
}

/** Growth as shown on a stat card; positive only when above 0 (green), otherwise red. */
export function formatGrowth(value: number): { text: string; positive: boolean } {
  const rounded = Math.round(value * 10) / 10;
  return { text: `${rounded > 0 ? '+' : ''}${rounded}%`, positive: rounded > 0 };
}

export function initials(firstName: string, lastName: string): string {
  return `${firstName.trim().charAt(0)}${lastName.trim().charAt(0)}`.toUpperCase() || '?';
}
