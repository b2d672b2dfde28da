import { useEffect, useState, type SubmitEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import * as v from 'valibot';
import {
  CLAIM_KEYS,
  PUBLIC_SOURCE_CLAIMS,
  SiteSettingsSchema,
  registerUrlFor,
  type ClaimKey,
  type SiteSettings,
} from '../schemas/site-settings';
import { defaultSiteSettings } from '../lib/site-settings';
import { issuesToFieldErrors } from './field-errors';
import { api, ApiError } from './api';
import { Loading } from './Loading';
import { fieldId, TextField } from './settings/fields';
import { emptyPrice, PricesSection, type CatalogueChoices } from './settings/PricesSection';
import { RtoDelivers } from './settings/RtoDelivers';

type Field = {
  group: 'contactInfo' | 'socialMedia' | 'business';
  name: string;
  label: string;
  type: 'email' | 'tel' | 'text' | 'url';
  autoComplete?: string;
  hint?: string;
  inputMode?: 'numeric';
};

const contactFields: Field[] = [
  { group: 'contactInfo', name: 'email', label: 'E-mail', type: 'email', autoComplete: 'off' },
  { group: 'contactInfo', name: 'phone', label: 'Phone', type: 'tel', autoComplete: 'off' },
  {
    group: 'contactInfo',
    name: 'phoneSecondary',
    label: 'Secondary phone',
    type: 'tel',
    autoComplete: 'off',
    hint: 'Leave empty to hide it.',
  },
  {
    group: 'contactInfo',
    name: 'businessHours',
    label: 'Business hours',
    type: 'text',
    hint: 'For example: Mon - Sat: 8:00 am - 7:00 pm',
  },
  { group: 'contactInfo', name: 'address', label: 'Address', type: 'text' },
];
const socialFields: Field[] = [
  { group: 'socialMedia', name: 'facebook', label: 'Facebook URL', type: 'url', hint: 'Leave empty to hide the link.' },
  {
    group: 'socialMedia',
    name: 'instagram',
    label: 'Instagram URL',
    type: 'url',
    hint: 'Leave empty to hide the link.',
  },
  { group: 'socialMedia', name: 'youtube', label: 'YouTube URL', type: 'url', hint: 'Leave empty to hide the link.' },
];
const businessFields: Field[] = [
  {
    group: 'business',
    name: 'legalName',
    label: 'Legal name',
    type: 'text',
    autoComplete: 'off',
    hint: 'The entity that runs this service, as on the ABN register. Shown in the privacy policy and terms.',
  },
  {
    group: 'business',
    name: 'abn',
    label: 'ABN',
    type: 'text',
    autoComplete: 'off',
    inputMode: 'numeric',
    hint: '11 digits, for example 51 824 753 556.',
  },
];

const claimLabels: Record<ClaimKey, { label: string; value: string; hint: string }> = {
  successRate: { label: 'Success rate (About page)', value: 'Figure (per cent)', hint: 'A number, shown with "%".' },
  satisfaction: { label: 'Satisfaction (About page)', value: 'Figure (out of 5)', hint: 'For example 4.9.' },
  completionTime: {
    label: 'Completion time (every page that states it)',
    value: 'Timeframe',
    hint: 'For example 4-8 weeks. Course pages show it as an estimate.',
  },
  process: {
    label: 'Four-step process (home page)',
    value: 'Section heading',
    hint: 'The heading of the home page process section.',
  },
};

interface RtoDraft {
  legalName: string;
  code: string;
  categories: string[];
  courses: string[];
}
type FormState = Omit<SiteSettings, 'partnerRtos'> & { partnerRtos: RtoDraft[] };

interface SaveAnswer {
  success: boolean;
  message: string;
  note?: string;
  settings: SiteSettings;
}

function toForm(settings: SiteSettings): FormState {
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
    claims: Object.fromEntries(
      CLAIM_KEYS.map((key) => [key, { ...withDefaults.claims[key] }]),
    ) as SiteSettings['claims'],
    prices: (withDefaults.prices ?? []).map((price) => ({ ...price })),
  };
}

const same = (a: FormState, b: FormState) => JSON.stringify(a) === JSON.stringify(b);
const emptyRto = (): RtoDraft => ({ legalName: '', code: '', categories: [], courses: [] });

export default function SettingsPage() {
  const queryClient = useQueryClient();
  const { data: loaded, isPending } = useQuery({
    queryKey: ['site-settings'],
    queryFn: async () => {
      try {
        const answer = await api<SiteSettings>('/admin/site-settings');
        const { contactInfo, socialMedia, business, partnerRtos, claims, prices } = {
          ...defaultSiteSettings,
          ...answer,
        };
        return { settings: { contactInfo, socialMedia, business, partnerRtos, claims, prices }, failed: false };
      } catch (cause) {
        // If the load is not OK the built-in defaults are used, with a toast.
        console.error('Site settings could not be loaded', cause);
        return { settings: defaultSiteSettings, failed: true };
      }
    },
  });
  // What a fee can be for: the catalogue as staff see it (published, edited and added qualifications).
  const { data: choices } = useQuery({
    queryKey: ['admin-catalogue'],
    queryFn: () =>
      api<{
        courses: (CatalogueChoices['courses'][number] & { status: string })[];
        categories: CatalogueChoices['categories'];
      }>('/admin/catalogue'),
    select: (data): CatalogueChoices => ({
      courses: data.courses.filter((course) => course.status !== 'retired'),
      categories: data.categories,
    }),
  });
  const [form, setForm] = useState<FormState | null>(null);
  const [saved, setSaved] = useState<FormState | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [banner, setBanner] = useState<{ kind: 'success' | 'error'; text: string; note?: string } | null>(null);

  useEffect(() => {
    if (!loaded || form) return;
    setForm(toForm(loaded.settings));
    setSaved(toForm(loaded.settings));
    if (loaded.failed) toast.error('Failed to load settings');
  }, [loaded, form]);

  // Links from the dashboard's launch checklist jump to a section once the form is there.
  const formReady = form !== null;
  useEffect(() => {
    if (!formReady || !location.hash) return;
    const target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
    target?.scrollIntoView();
    // A link to one field (a claim's source note) puts the cursor in it.
    if (target instanceof HTMLInputElement) target.focus();
  }, [formReady]);

  const dirty = form !== null && saved !== null && !same(form, saved);
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    addEventListener('beforeunload', warn);
    return () => removeEventListener('beforeunload', warn);
  }, [dirty]);

  const save = useMutation({
    mutationFn: (settings: SiteSettings) => api<SaveAnswer>('/admin/site-settings', { method: 'POST', body: settings }),
    onSuccess: (answer) => {
      const settings = toForm(answer.settings);
      setForm(settings);
      setSaved(toForm(answer.settings));
      queryClient.setQueryData(['site-settings'], { settings: answer.settings, failed: false });
      queryClient.invalidateQueries({ queryKey: ['launch-readiness'] });
      setBanner({ kind: 'success', text: 'Settings saved successfully!', note: answer.note });
      toast.success('Settings saved successfully!');
    },
    onError: (cause) => {
      if (cause instanceof ApiError && cause.errors.length)
        setErrors(Object.fromEntries(cause.errors.map((e) => [e.field, e.message])));
      const text = cause instanceof ApiError && cause.fromServer ? cause.message : 'Failed to save settings';
      setBanner({ kind: 'error', text });
      toast.error('Failed to save settings');
    },
  });

  if (isPending || !form) return <Loading text="Loading settings..." />;

  function change(path: string, mutate: (next: FormState) => void) {
    setForm((current) => {
      if (!current) return current;
      const next = structuredClone(current);
      mutate(next);
      return next;
    });
    // A list's change also clears the errors of its items (partnerRtos.0.courses.2).
    setErrors((current) =>
      Object.fromEntries(Object.entries(current).filter(([key]) => key !== path && !key.startsWith(`${path}.`))),
    );
  }

  const update = (field: Field, value: string) =>
    change(`${field.group}.${field.name}`, (next) => {
      (next[field.group] as Record<string, string>)[field.name] = value;
    });

  function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    setBanner(null);
    const checked = v.safeParse(SiteSettingsSchema, form!);
    if (!checked.success) {
      const fieldErrors = issuesToFieldErrors(checked.issues);
      setErrors(fieldErrors);
      setBanner({ kind: 'error', text: 'Please correct the highlighted fields.' });
      document.getElementById(fieldId(Object.keys(fieldErrors)[0] ?? ''))?.focus();
      return;
    }
    setErrors({});
    save.mutate(checked.output);
  }

  function onReset() {
    // Replaces the form values with the built-in defaults locally, without saving.
    setForm(toForm(defaultSiteSettings));
    setErrors({});
    setBanner(null);
    toast.info('Defaults restored in the form. Save to apply them.');
  }

  const busy = save.isPending;
  const fields = (list: Field[]) =>
    list.map((field) => (
      <Input
        key={field.name}
        field={field}
        value={(form[field.group] as Record<string, string>)[field.name] ?? ''}
        error={errors[`${field.group}.${field.name}`]}
        onChange={update}
      />
    ));

  return (
    <>
      <p className="admin-lead">Manage contact information and social media links</p>
      {banner && (
        <div className={`admin-banner is-${banner.kind}`} role={banner.kind === 'error' ? 'alert' : 'status'}>
          <p>{banner.text}</p>
          {banner.note && <p className="admin-banner__note">{banner.note}</p>}
        </div>
      )}
      <form className="settings-form" onSubmit={onSubmit} noValidate aria-busy={busy}>
        <fieldset className="admin-card" disabled={busy} id="contact">
          <legend>Contact Information</legend>
          {fields(contactFields)}
        </fieldset>
        <fieldset className="admin-card" disabled={busy} id="social">
          <legend>Social Media Links</legend>
          {fields(socialFields)}
        </fieldset>
        <fieldset className="admin-card" disabled={busy} id="business">
          <legend>Business details</legend>
          {fields(businessFields)}
        </fieldset>
        <fieldset className="admin-card" disabled={busy} id="partner-rtos">
          <legend>Partner RTOs</legend>
          <p className="admin-hint">
            The registered training organisations that assess and issue the qualifications. Each is named only for what
            it delivers: tick its categories and find its qualifications in the catalogue. A qualification no RTO
            delivers says so on its page and offers the free quote; the dashboard lists them.
          </p>
          {form.partnerRtos.map((rto, index) => (
            <RtoFields
              // biome-ignore lint/suspicious/noArrayIndexKey: the fields are controlled and their errors are keyed by position
              key={index}
              index={index}
              rto={rto}
              choices={choices}
              errors={errors}
              onChange={(name, value) =>
                change(`partnerRtos.${index}.${name}`, (next) => {
                  next.partnerRtos[index] = { ...next.partnerRtos[index]!, [name]: value };
                })
              }
              onRemove={() =>
                change(`partnerRtos.${index}`, (next) => {
                  next.partnerRtos.splice(index, 1);
                })
              }
            />
          ))}
          <div>
            <button
              type="button"
              className="admin-btn admin-btn--ghost"
              onClick={() =>
                change('partnerRtos', (next) => {
                  next.partnerRtos.push(emptyRto());
                })
              }
            >
              Add a partner RTO
            </button>
          </div>
        </fieldset>
        <fieldset className="admin-card" disabled={busy} id="fees">
          <legend>Indicative fees</legend>
          <PricesSection
            prices={form.prices}
            rtos={form.partnerRtos.filter((rto) => /^\d{4,6}$/.test(rto.code.trim()))}
            choices={choices}
            errors={errors}
            onChange={(index, name, value) =>
              change(`prices.${index}.${name}`, (next) => {
                next.prices[index] = { ...next.prices[index]!, [name]: value };
              })
            }
            onAdd={() =>
              change('prices', (next) => {
                next.prices.push(emptyPrice(next.partnerRtos.length === 1 ? next.partnerRtos[0]!.code : ''));
              })
            }
            onRemove={(index) =>
              change(`prices.${index}`, (next) => {
                next.prices.splice(index, 1);
              })
            }
          />
        </fieldset>
        <fieldset className="admin-card" disabled={busy} id="claims">
          <legend>Claims on the site</legend>
          <p className="admin-hint">
            Each figure is shown only while it is switched on. Note where it comes from (a report, a survey, your
            records) so anyone can check it; a claim without a source is listed on the dashboard before launch. Rates,
            ratings and the completion time also need a source visitors can see, shown under the figure. The number of
            qualifications and industries on the About page is counted from the catalogue.
          </p>
          {CLAIM_KEYS.map((key) => (
            <ClaimFields
              key={key}
              claimKey={key}
              claim={form.claims[key]}
              errors={errors}
              onChange={(name, value) =>
                change(`claims.${key}.${name}`, (next) => {
                  (next.claims[key] as Record<string, string | boolean>)[name] = value;
                })
              }
            />
          ))}
        </fieldset>
        <div className="admin-actions">
          <button type="submit" className="admin-btn admin-btn--primary" disabled={busy}>
            {busy ? 'Saving...' : 'Save Settings'}
          </button>
          <button type="button" className="admin-btn admin-btn--ghost" onClick={onReset} disabled={busy}>
            Reset to Defaults
          </button>
          {dirty && !busy && <span className="admin-dirty">Unsaved changes</span>}
        </div>
      </form>
    </>
  );
}

function Input({
  field,
  value,
  error,
  onChange,
}: {
  field: Field;
  value: string;
  error?: string;
  onChange: (field: Field, value: string) => void;
}) {
  const path = `${field.group}.${field.name}`;
  return (
    <TextField
      path={path}
      label={field.label}
      type={field.type}
      value={value}
      error={error}
      hint={field.hint}
      autoComplete={field.autoComplete}
      inputMode={field.inputMode ?? (field.type === 'tel' ? 'tel' : undefined)}
      onChange={(value) => onChange(field, value)}
    />
  );
}

function RtoFields({
  index,
  rto,
  choices,
  errors,
  onChange,
  onRemove,
}: {
  index: number;
  rto: RtoDraft;
  choices: CatalogueChoices | undefined;
  errors: Record<string, string>;
  onChange: <K extends keyof RtoDraft>(name: K, value: RtoDraft[K]) => void;
  onRemove: () => void;
}) {
  const path = (name: string) => `partnerRtos.${index}.${name}`;
  const title = rto.legalName.trim() || `Partner RTO ${index + 1}`;
  const code = rto.code.trim();
  return (
    <fieldset className="settings-subcard" data-testid="rto-row">
      <legend>{title}</legend>
      <TextField
        label="Legal name"
        path={path('legalName')}
        value={rto.legalName}
        error={errors[path('legalName')]}
        onChange={(value) => onChange('legalName', value)}
      />
      <TextField
        label="RTO code"
        inputMode="numeric"
        hint={
          /^\d{4,6}$/.test(code) ? (
            <>
              4 to 6 digits, exactly as on training.gov.au. Pages link to{' '}
              <a href={registerUrlFor(code)} target="_blank" rel="noopener noreferrer">
                {registerUrlFor(code)}
              </a>
              .
            </>
          ) : (
            '4 to 6 digits, exactly as on training.gov.au. Pages link to its register entry.'
          )
        }
        path={path('code')}
        value={rto.code}
        error={errors[path('code')]}
        onChange={(value) => onChange('code', value)}
      />
      <RtoDelivers
        index={index}
        categories={rto.categories}
        courses={rto.courses}
        choices={choices}
        errors={errors}
        onChange={(name, value) => onChange(name, value)}
      />
      {rto.categories.length === 0 && rto.courses.length === 0 && (
        <p className="admin-hint" role="note">
          This RTO delivers nothing yet, so no page names it.
        </p>
      )}
      <div>
        <button type="button" className="admin-btn admin-btn--ghost" onClick={onRemove}>
          Remove {title}
        </button>
      </div>
    </fieldset>
  );
}

function ClaimFields({
  claimKey,
  claim,
  errors,
  onChange,
}: {
  claimKey: ClaimKey;
  claim: SiteSettings['claims'][ClaimKey];
  errors: Record<string, string>;
  onChange: (name: 'value' | 'source' | 'publicSource' | 'enabled', value: string | boolean) => void;
}) {
  const { label, value, hint } = claimLabels[claimKey];
  const path = (name: string) => `claims.${claimKey}.${name}`;
  const switchId = fieldId(path('enabled'));
  return (
    <fieldset className="settings-subcard">
      <legend>{label}</legend>
      <div className="admin-check">
        <input
          id={switchId}
          type="checkbox"
          checked={claim.enabled}
          onChange={(event) => onChange('enabled', event.target.checked)}
        />
        <label htmlFor={switchId}>Show on the site</label>
      </div>
      <TextField
        path={path('value')}
        label={value}
        value={claim.value}
        error={errors[path('value')]}
        hint={hint}
        onChange={(next) => onChange('value', next)}
      />
      <TextField
        path={path('source')}
        label="Source note"
        value={claim.source}
        error={errors[path('source')]}
        hint="Where the claim comes from and when it was last checked (staff only, not shown on the site)."
        onChange={(next) => onChange('source', next)}
      />
      {PUBLIC_SOURCE_CLAIMS.includes(claimKey) && (
        <TextField
          path={path('publicSource')}
          label="Source shown to visitors"
          value={claim.publicSource}
          error={errors[path('publicSource')]}
          hint='Shown under the figure, for example "Based on 212 reviews on Google, March 2027".'
          onChange={(next) => onChange('publicSource', next)}
        />
      )}
    </fieldset>
  );
}
