import { useEffect, useId, useState, type SubmitEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import * as v from 'valibot';
import { SiteSettingsSchema, type SiteSettings } from '../schemas/site-settings';
import { defaultSiteSettings } from '../lib/site-settings';
import { issuesToFieldErrors } from './field-errors';
import { api, ApiError } from './api';

type Field = { group: keyof SiteSettings; name: string; label: string; type: 'email' | 'tel' | 'text' | 'url'; autoComplete?: string; hint?: string };

const contactFields: Field[] = [
  { group: 'contactInfo', name: 'email', label: 'E-mail', type: 'email', autoComplete: 'off' },
  { group: 'contactInfo', name: 'phone', label: 'Phone', type: 'tel', autoComplete: 'off' },
  { group: 'contactInfo', name: 'phoneSecondary', label: 'Secondary phone', type: 'tel', autoComplete: 'off', hint: 'Leave empty to hide it.' },
  { group: 'contactInfo', name: 'businessHours', label: 'Business hours', type: 'text', hint: 'For example: Mon - Sat: 8:00 am - 7:00 pm' },
  { group: 'contactInfo', name: 'address', label: 'Address', type: 'text' },
];
const socialFields: Field[] = [
  { group: 'socialMedia', name: 'facebook', label: 'Facebook URL', type: 'url', hint: 'Leave empty to hide the link.' },
  { group: 'socialMedia', name: 'instagram', label: 'Instagram URL', type: 'url', hint: 'Leave empty to hide the link.' },
  { group: 'socialMedia', name: 'youtube', label: 'YouTube URL', type: 'url', hint: 'Leave empty to hide the link.' },
];

interface SaveAnswer {
  success: boolean;
  message: string;
  note?: string;
  settings: SiteSettings;
}

const clone = (settings: SiteSettings): SiteSettings => ({ contactInfo: { ...settings.contactInfo }, socialMedia: { ...settings.socialMedia } });
const same = (a: SiteSettings, b: SiteSettings) => JSON.stringify(a) === JSON.stringify(b);

export default function SettingsPage() {
  const queryClient = useQueryClient();
  const { data: loaded, isPending } = useQuery({
    queryKey: ['site-settings'],
    queryFn: async () => {
      try {
        const answer = await api<SiteSettings>('/admin/site-settings');
        return { settings: { contactInfo: answer.contactInfo, socialMedia: answer.socialMedia }, failed: false };
      } catch (cause) {
        // SPEC 7/8: if the load is not OK the built-in defaults are used, with a toast.
        console.error('Site settings could not be loaded', cause);
        return { settings: defaultSiteSettings, failed: true };
      }
    },
  });
  const [form, setForm] = useState<SiteSettings | null>(null);
  const [saved, setSaved] = useState<SiteSettings | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [banner, setBanner] = useState<{ kind: 'success' | 'error'; text: string; note?: string } | null>(null);

  useEffect(() => {
    if (!loaded || form) return;
    setForm(clone(loaded.settings));
    setSaved(clone(loaded.settings));
    if (loaded.failed) toast.error('Failed to load settings');
  }, [loaded, form]);

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
      const settings = clone(answer.settings);
      setForm(settings);
      setSaved(settings);
      queryClient.setQueryData(['site-settings'], { settings, failed: false });
      setBanner({ kind: 'success', text: 'Settings saved successfully!', note: answer.note });
      toast.success('Settings saved successfully!');
    },
    onError: (cause) => {
      if (cause instanceof ApiError && cause.errors.length) setErrors(Object.fromEntries(cause.errors.map((e) => [e.field, e.message])));
      const text = cause instanceof ApiError && cause.status !== 0 && cause.message ? cause.message : 'Failed to save settings';
      setBanner({ kind: 'error', text });
      toast.error('Failed to save settings');
    },
  });

  if (isPending || !form) return <p className="admin-loading" role="status">Loading settings...</p>;

  function update(field: Field, value: string) {
    setForm((current) => {
      if (!current) return current;
      const next = clone(current);
      (next[field.group] as Record<string, string>)[field.name] = value;
      return next;
    });
    setErrors(({ [`${field.group}.${field.name}`]: _removed, ...rest }) => rest);
  }

  function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    setBanner(null);
    const checked = v.safeParse(SiteSettingsSchema, form);
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
    // SPEC 4: replaces the form values with the built-in defaults locally, without saving.
    setForm(clone(defaultSiteSettings));
    setErrors({});
    setBanner(null);
    toast.info('Defaults restored in the form. Save to apply them.');
  }

  const busy = save.isPending;
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
        <fieldset className="admin-card" disabled={busy}>
          <legend>Contact Information</legend>
          {contactFields.map((field) => (
            <Input key={field.name} field={field} value={(form[field.group] as Record<string, string>)[field.name]} error={errors[`${field.group}.${field.name}`]} onChange={update} />
          ))}
        </fieldset>
        <fieldset className="admin-card" disabled={busy}>
          <legend>Social Media Links</legend>
          {socialFields.map((field) => (
            <Input key={field.name} field={field} value={(form[field.group] as Record<string, string>)[field.name]} error={errors[`${field.group}.${field.name}`]} onChange={update} />
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

const fieldId = (path: string) => `setting-${path.replace('.', '-')}`;

function Input({ field, value, error, onChange }: { field: Field; value: string; error?: string; onChange: (field: Field, value: string) => void }) {
  const path = `${field.group}.${field.name}`;
  const id = fieldId(path);
  const hintId = useId();
  const errorId = useId();
  const describedBy = [field.hint ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="admin-field">
      <label htmlFor={id}>{field.label}</label>
      <input
        id={id}
        name={path}
        type={field.type}
        value={value}
        autoComplete={field.autoComplete}
        inputMode={field.type === 'tel' ? 'tel' : undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        onChange={(event) => onChange(field, event.target.value)}
      />
      {field.hint && <p id={hintId} className="admin-hint">{field.hint}</p>}
      {error && <p id={errorId} className="admin-error">{error}</p>}
    </div>
  );
}
