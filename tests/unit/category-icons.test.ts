import { describe, expect, it } from 'vitest';
import categories from '../../content/categories.json';
import { INDUSTRY_ICONS, industryIcon } from '../../src/lib/category-icons';

describe('category icons', () => {
  it('gives every category its own icon', () => {
    const icons = categories.map((c) => industryIcon(c.slug));
    expect(icons.every(Boolean)).toBe(true);
    expect(new Set(icons).size).toBe(categories.length);
  });
  it('shows the industry: no camera for beauty, no truck for security', () => {
    expect(INDUSTRY_ICONS['beauty-hair-services']).toBe('scissors');
    expect(INDUSTRY_ICONS['security-cleaning']).not.toBe('truck');
    expect(Object.values(INDUSTRY_ICONS)).not.toContain('camera');
  });
});
