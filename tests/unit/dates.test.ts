import { describe, expect, it } from 'vitest';
import { formatLongDate } from '../../src/lib/dates';
import { formatDate } from '../../src/pages/blog/_components/format';

describe('Australian dates', () => {
  it('reads day month year on the Sydney calendar', () => {
    expect(formatLongDate('2025-07-22T02:00:00Z')).toBe('22 July 2025');
    // 3 pm UTC on 21 July is already 22 July in Sydney.
    expect(formatLongDate('2025-07-21T15:00:00Z')).toBe('22 July 2025');
    expect(formatDate('2026-11-22T00:00:00Z')).toBe('22 November 2026');
    expect(formatDate(null)).toBe('');
  });
});
