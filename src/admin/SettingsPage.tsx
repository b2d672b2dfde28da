import { useEffect, useState, type SubmitEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import * as v from 'valibot';
import { CLAIM_KEYS, SiteSettingsSchema, type SiteSettings } from '../schemas/site-settings';
import { defaultSiteSettings } from '../lib/site-settings';
import { issuesToFieldErrors } from './field-errors';
import { api, ApiError } from './api';
import { Loading } from './Loading';
import { REBUILD_KEY, RebuildStatus } from './RebuildStatus';
import { EditConflict, useEditConflict } from './edits/EditConflict';
import { useLeaveGuard } from './edits/useLeaveGuard';
import { ClaimFields } from './settings/ClaimFields';
import { fieldId, Input } from './settings/fields';
import { emptyPrice, PricesSection, type CatalogueChoices } from './settings/PricesSection';
import { RtoFields } from './settings/RtoFields';
import { businessFields, contactFields, socialFields, type Field } from './settings/settings-fields';
import {
  emptyRto,
  newerSettings,
  sameForm,
  settingsLabel,
  toForm,
  versionOf,
  type FormState,
  type SaveAnswer,
} from './settings/settings-form';

/** The latest rebuild of the public pages, which carry these settings in their HTML. */
const SETTINGS_REBUILD = '/admin/site-settings/rebuild';

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
        return {
          settings: { contactInfo, socialMedia, business, partnerRtos, claims, prices },
          version: versionOf(answer),
          failed: false,
        };
      } catch (cause) {
        // If the load is not OK the built-in defaults are used, with a toast.
        console.error('Site settings could not be loaded', cause);
        return { settings: defaultSiteSettings, version: 0, failed: true };
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
  // The version the form was loaded at: a save names it and is refused (409) when someone saved since.
  const [version, setVersion] = useState(0);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const conflicts = useEditConflict<FormState>();
  const { conflict } = conflicts;
  const [banner, setBanner] = useState<{ kind: 'success' | 'error'; text: string; note?: string } | null>(null);

  useEffect(() => {
    if (!loaded || form) return;
    setForm(toForm(loaded.settings));
    setSaved(toForm(loaded.settings));
    setVersion(loaded.version);
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

  const dirty = form !== null && saved !== null && !sameForm(form, saved);
  const { dialog } = useLeaveGuard(dirty);

  const save = useMutation({
    mutationFn: ({ settings, at }: { settings: SiteSettings; at: number }) =>
      api<SaveAnswer>('/admin/site-settings', { method: 'POST', body: { ...settings, version: at } }),
    onSuccess: (answer) => {
      const settings = toForm(answer.settings);
      setForm(settings);
      setSaved(toForm(answer.settings));
      setVersion(versionOf(answer.settings));
      conflicts.clear();
      queryClient.setQueryData(['site-settings'], {
        settings: answer.settings,
        version: versionOf(answer.settings),
        failed: false,
      });
      queryClient.invalidateQueries({ queryKey: ['launch-readiness'] });
      // The rebuild this save asked for, followed below until it is live; the catalogue screens follow it too.
      if (answer.rebuild) queryClient.setQueryData([...REBUILD_KEY, SETTINGS_REBUILD], answer.rebuild);
      void queryClient.invalidateQueries({ queryKey: REBUILD_KEY });
      setBanner({ kind: 'success', text: 'Settings saved successfully!', note: answer.note });
      toast.success('Settings saved successfully!');
    },
    onError: (cause) => {
      const newer = cause instanceof ApiError && cause.status === 409 ? newerSettings(cause.body) : null;
      if (newer) {
        // Someone saved since this form was loaded: nothing was saved; the choice of what to keep is shown.
        conflicts.show({ message: cause.message, ...newer });
        toast.error('Failed to save settings');
        return;
      }
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

  /** Checks `values` with the server's schema and saves them on top of version `at`. */
  function submit(values: FormState, at: number) {
    setBanner(null);
    const checked = v.safeParse(SiteSettingsSchema, values);
    if (!checked.success) {
      const fieldErrors = issuesToFieldErrors(checked.issues);
      setErrors(fieldErrors);
      setBanner({ kind: 'error', text: 'Please correct the highlighted fields.' });
      document.getElementById(fieldId(Object.keys(fieldErrors)[0] ?? ''))?.focus();
      return;
    }
    setErrors({});
    save.mutate({ settings: checked.output, at });
  }

  function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    submit(form!, version);
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
      <p className="admin-note">
        The public pages carry these details in their HTML: a save rebuilds them, and the change shows there when the
        rebuild is live, usually within a few minutes. Staff notes (source notes, the reply-to address) are not on the
        pages, so saving only those rebuilds nothing.
      </p>
      {banner && (
        <div className={`admin-banner is-${banner.kind}`} role={banner.kind === 'error' ? 'alert' : 'status'}>
          <p>{banner.text}</p>
          {banner.note && <p className="admin-banner__note">{banner.note}</p>}
        </div>
      )}
      <RebuildStatus path={SETTINGS_REBUILD} />
      {conflict && (
        <EditConflict
          conflict={conflict}
          mine={form}
          label={settingsLabel}
          saving={busy}
          onSave={(value, over) => {
            setForm(value);
            setVersion(conflicts.settle(conflict));
            submit(value, over);
          }}
          onTake={(theirs) => {
            setForm(theirs);
            setSaved(theirs);
            setVersion(conflicts.settle(conflict));
            setErrors({});
          }}
        />
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
      {dialog}
    </>
  );
}
