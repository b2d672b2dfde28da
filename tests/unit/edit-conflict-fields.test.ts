import { describe, expect, it } from 'vitest';
import { differingFields, mergeFields, shownValue } from '../../src/admin/edits/conflict-fields';

const mine = {
  contactInfo: { phone: '02 5550 1111', email: 'office@example.com' },
  claims: { successRate: { value: '98', source: 'My survey', enabled: true } },
  partnerRtos: [{ code: '12345', courses: ['CPC30220'] }],
};

describe('edit conflicts, field by field', () => {
  it('finding 7: only the fields whose values differ are listed, each with both values', () => {
    const theirs = structuredClone(mine);
    theirs.contactInfo.phone = '02 5550 2222';
    theirs.claims.successRate.enabled = false;
    expect(differingFields(mine, theirs)).toEqual([
      { path: 'contactInfo.phone', mine: '02 5550 1111', theirs: '02 5550 2222' },
      { path: 'claims.successRate.enabled', mine: true, theirs: false },
    ]);
  });

  it('finding 7: a per-field merge takes the chosen fields of theirs and keeps every other field of mine', () => {
    const theirs = structuredClone(mine);
    theirs.contactInfo.phone = '02 5550 2222';
    theirs.contactInfo.email = 'theirs@example.com';
    theirs.partnerRtos = [{ code: '54321', courses: [] }];
    const merged = mergeFields(mine, theirs, ['contactInfo.phone', 'partnerRtos']);
    expect(merged).toEqual({
      ...mine,
      contactInfo: { phone: '02 5550 2222', email: 'office@example.com' },
      partnerRtos: [{ code: '54321', courses: [] }],
    });
    // Mine is left as it was.
    expect(mine.contactInfo.phone).toBe('02 5550 1111');
  });

  it('finding 7: keys only the other answer has (or __proto__) are never listed or merged', () => {
    const theirs = JSON.parse(
      '{"contactInfo":{"phone":"1","email":"office@example.com","extra":"x"},"__proto__":{"polluted":true},"claims":{"successRate":{"value":"98","source":"My survey","enabled":true}},"partnerRtos":[{"code":"12345","courses":["CPC30220"]}]}',
    );
    expect(differingFields(mine, theirs).map((field) => field.path)).toEqual(['contactInfo.phone']);
    const merged = mergeFields(mine, theirs, ['contactInfo.extra', '__proto__.polluted', 'contactInfo.phone']);
    expect(merged.contactInfo).toEqual({ phone: '1', email: 'office@example.com' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('shows values as a person reads them', () => {
    expect(shownValue('')).toBe('(empty)');
    expect(shownValue(true)).toBe('Yes');
    expect(shownValue(['a', 'b'])).toBe('a\nb');
    expect(shownValue([])).toBe('(none)');
    expect(shownValue({ code: '12345', courses: ['CPC30220'], categories: [] })).toBe('12345 · CPC30220');
  });
});
