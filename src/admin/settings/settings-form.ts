import * as v from 'valibot';
import { CLAIM_KEYS, SiteSettingsSchema, type ClaimKey, type SiteSettings } from '../../schemas/site-settings';
import { defaultSiteSettings } from '../../lib/site-settings';
import type { Rebuild } from '../RebuildStatus';
import { businessFields, claimLabels, contactFields, socialFields } from './settings-fields';

/** The settings form's state: the settings as loaded, each partner RTO without its derived register link. */
export interface RtoDraft {
  legalName: string;
  code: string;
  categories: string[];
  courses: string[];
}
export type FormState = Omit<SiteSettings, 'partnerRtos'> & { partnerRtos: RtoDraft[] };

export interface SaveAnswer {
  success: boolean;
  message: string;
  note?: string;
  settings: SiteSettings & { version: number };
  /** The rebuild of the public pages this save asked for. */
  rebuild?: Rebuild;
}

export function toForm(settings: SiteSettings): FormState {
  const withDefaults = { ...defaultSiteSettings, ...settings };
  return {
    contactInfo: { ...withDefaults.contactInfo },
    socialMedia: { ...withDefaults.socialMedia },
    business: { ...withDefaults.business },
    // The register link is derived from the code, so it is neither shown as a field nor sent back.
    partnerRtos: withDefaults.partnerRtos.map(({ legalName, code, categories, courses }) => ({
      legalName,
      code,
      categories: [...categories],
      courses: [...courses],
    })),
    claims: structuredClone(withDefaults.claims),
    prices: (withDefaults.prices ?? []).map((price) => ({ ...price })),
  };
}

export const sameForm = (a: FormState, b: FormState) => JSON.stringify(a) === JSON.stringify(b);
export const emptyRto = (): RtoDraft => ({ legalName: '', code: '', categories: [], courses: [] });

/** The version settings were loaded or answered with (0 when never saved). */
export function versionOf(answer: unknown): number {
  const version = (answer as { version?: unknown } | null)?.version;
  return typeof version === 'number' && Number.isInteger(version) && version >= 0 ? version : 0;
}

/** The newer settings a 409 carries, checked like any answer from outside; null when they are not usable. */
export function newerSettings(body: unknown): { theirs: FormState; version: number } | null {
  const current = (body as { current?: unknown } | null)?.current;
  const parsed = v.safeParse(SiteSettingsSchema, current);
  return parsed.success ? { theirs: toForm(parsed.output), version: versionOf(current) } : null;
}

const CLAIM_FIELDS = new Map([
  ['enabled', 'Show on the site'],
  ['source', 'Source note'],
  ['publicSource', 'Source shown to visitors'],
]);
const LABELS = new Map<string, string>([
  ...[...contactFields, ...socialFields, ...businessFields].map((field): [string, string] => [
    `${field.group}.${field.name}`,
    field.label,
  ]),
  ['partnerRtos', 'Partner RTOs'],
  ['prices', 'Indicative fees'],
]);

/** A field of the form as an edit conflict names it (a claim's field with the claim's name). */
export function settingsLabel(path: string): string {
  const known = LABELS.get(path);
  if (known) return known;
  const [group, key, field] = path.split('.');
  if (group === 'claims' && key && field && (CLAIM_KEYS as readonly string[]).includes(key)) {
    const claim = claimLabels[key as ClaimKey];
    return `${claim.label}: ${field === 'value' ? claim.value : (CLAIM_FIELDS.get(field) ?? field)}`;
  }
  return path;
}
