import site from '../../content/site.json';

/**
 * The business behind the site, as the legal pages name it: its legal name and ABN from the site
 * settings when they hold them (`business.legalName`, `business.abn`; read loosely, so settings
 * without these fields still work), else the trading name and no ABN.
 */
export interface BusinessEntity {
  legalName: string;
  /** Formatted as 11 digits in groups (12 345 678 901), or empty when unknown. */
  abn: string;
}

const textAt = (value: unknown, ...path: string[]): string => {
  let current = value;
  for (const key of path) current = current && typeof current === 'object' ? (current as Record<string, unknown>)[key] : undefined;
  return typeof current === 'string' ? current.trim() : '';
};

export function formatAbn(value: string): string {
  const digits = value.replace(/\s+/g, '');
  return /^\d{11}$/.test(digits) ? `${digits.slice(0, 2)} ${digits.slice(2, 5)} ${digits.slice(5, 8)} ${digits.slice(8)}` : value.trim();
}

export function businessEntity(settings: unknown): BusinessEntity {
  const legalName = textAt(settings, 'business', 'legalName') || textAt(settings, 'business', 'legalEntityName') || site.name;
  return { legalName, abn: formatAbn(textAt(settings, 'business', 'abn')) };
}
