// Signing brands: each shown as the top of the signing page draws it (the colours the service
// makes readable, the logo, the name), and, for admins, made, changed and deleted. A logo is
// uploaded as a PNG or JPEG, which the service reads before keeping it.
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api';
import type { TScreenProps } from '../routes';
import { settingsApi, type TBrandRow, type TBrandWrite } from '../settings-api';
import { useWords } from '../words';

const COLOUR = /^#[0-9a-fA-F]{6}$/;
const MAX_LOGO_BYTES = 100_000;

/** The file's bytes as base64, for the API's `logo_b64`. */
async function base64Of(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

const isHttpUrl = (v: string) => {
  try {
    return ['http:', 'https:'].includes(new URL(v).protocol);
  } catch {
    return false;
  }
};

/** The top of the signing page as it looks with this brand (the page's own rules: app.css). */
function BrandPreview({ brand }: { brand: TBrandRow }) {
  const { t } = useWords();
  const p = brand.palette;
  const uploaded = brand.logo_url?.startsWith('data:image/') ? brand.logo_url : undefined;
  return (
    <figure class="brand-preview">
      <div class="preview-page" style={p ? { borderTopColor: p.brand } : undefined}>
        <div class="preview-top">
          {uploaded && <img class="preview-logo" src={uploaded} alt="" />}
          <span class="preview-name">
            <bdi>{brand.name}</bdi>
          </span>
        </div>
        <p class="preview-text">
          <span style={p ? { color: p.brand_text } : undefined}>{t('settings.brands.previewLink')}</span>
        </p>
        <span
          class="preview-button"
          style={p ? { background: p.brand, color: p.on_brand, borderColor: p.brand } : undefined}
        >
          {t('settings.brands.previewButton')}
        </span>
      </div>
      <figcaption>
        {t('settings.brands.previewCaption')}
        {brand.logo_url && !uploaded && (
          <>
            {' '}
            {t('settings.brands.linkedLogo')} <bdi class="mono">{brand.logo_url}</bdi>
          </>
        )}
      </figcaption>
    </figure>
  );
}

type TFormState = { name: string; colour: string; redirect: string; removeLogo: boolean };

/** Making a brand (no `brand`) or changing one. */
function BrandForm(props: {
  brand?: TBrandRow;
  onSave: (write: TBrandWrite) => Promise<void>;
  onCancel?: () => void;
}) {
  const { t } = useWords();
  const b = props.brand;
  const id = b ? `brand-${b.id}` : 'brand-new';
  const [form, setForm] = useState<TFormState>({
    name: b?.name ?? '',
    colour: b?.primary_color ?? '',
    redirect: b?.redirect_url ?? '',
    removeLogo: false,
  });
  const [errors, setErrors] = useState<Partial<Record<'name' | 'colour' | 'redirect' | 'logo', string>>>({});
  const [busy, setBusy] = useState(false);
  const logoField = useRef<HTMLInputElement>(null);
  const firstField = useRef<HTMLInputElement>(null);
  useLayoutEffect(() => {
    if (b) firstField.current?.focus();
  }, []);

  const set = (k: keyof TFormState) => (e: Event) =>
    setForm({
      ...form,
      [k]: (e.currentTarget as HTMLInputElement)[k === 'removeLogo' ? 'checked' : 'value'],
    });

  async function submit(e: Event) {
    e.preventDefault();
    const file = logoField.current?.files?.[0];
    const found: typeof errors = {};
    if (form.name.trim() === '') found.name = t('settings.brands.nameMissing');
    if (form.colour.trim() !== '' && !COLOUR.test(form.colour.trim()))
      found.colour = t('settings.brands.badColour');
    if (form.redirect.trim() !== '' && !isHttpUrl(form.redirect.trim()))
      found.redirect = t('settings.brands.badRedirect');
    if (file && (file.size > MAX_LOGO_BYTES || !['image/png', 'image/jpeg'].includes(file.type)))
      found.logo = t('settings.brands.badLogo');
    setErrors(found);
    const first = Object.keys(found)[0];
    if (first) return document.getElementById(`${id}-${first}`)?.focus();
    setBusy(true);
    try {
      await props.onSave({
        name: form.name.trim(),
        primary_color: form.colour.trim() || null,
        redirect_url: form.redirect.trim() || null,
        ...(file ? { logo_b64: await base64Of(file) } : form.removeLogo ? { logo_url: null } : {}),
      });
    } catch (err) {
      // The service read the logo and could not show it, or refused a field the checks above let by.
      // Anything else was said by the screen (onSave's caller) already.
      if (err instanceof ApiError && err.status === 400) setErrors({ logo: t('settings.brands.refused') });
    } finally {
      setBusy(false);
    }
  }

  const field = (
    k: 'name' | 'colour' | 'redirect',
    label: string,
    extra: Record<string, unknown>,
    hint?: string,
  ) => {
    const described = [hint ? `${id}-${k}-hint` : '', errors[k] ? `${id}-${k}-error` : '']
      .filter(Boolean)
      .join(' ');
    return (
      <div class="field">
        <label for={`${id}-${k}`}>{label}</label>
        {hint && (
          <p id={`${id}-${k}-hint`} class="hint">
            {hint}
          </p>
        )}
        <input
          id={`${id}-${k}`}
          ref={k === 'name' ? firstField : undefined}
          value={form[k]}
          onInput={set(k)}
          aria-invalid={errors[k] ? 'true' : undefined}
          aria-describedby={described || undefined}
          {...extra}
        />
        {errors[k] && (
          <p id={`${id}-${k}-error`} class="error">
            {errors[k]}
          </p>
        )}
      </div>
    );
  };

  return (
    <form
      class="brand-form"
      onSubmit={submit}
      noValidate
      aria-label={b ? t('settings.brands.editNamed', { name: b.name }) : t('settings.brands.newHeading')}
    >
      {field('name', t('settings.brands.name'), { maxLength: 200, autocomplete: 'organization' })}
      {field(
        'colour',
        t('settings.brands.colour'),
        { maxLength: 7, dir: 'ltr', class: 'mono' },
        t('settings.brands.colourHint'),
      )}
      {field(
        'redirect',
        t('settings.brands.redirect'),
        { type: 'url', dir: 'ltr', maxLength: 2000 },
        t('settings.brands.redirectHint'),
      )}
      <div class="field">
        <label for={`${id}-logo`}>{t('settings.brands.logo')}</label>
        <p id={`${id}-logo-hint`} class="hint">
          {t('settings.brands.logoHint')}
        </p>
        <input
          id={`${id}-logo`}
          ref={logoField}
          type="file"
          accept="image/png,image/jpeg"
          aria-invalid={errors.logo ? 'true' : undefined}
          aria-describedby={errors.logo ? `${id}-logo-hint ${id}-logo-error` : `${id}-logo-hint`}
        />
        {errors.logo && (
          <p id={`${id}-logo-error`} class="error">
            {errors.logo}
          </p>
        )}
      </div>
      {b?.logo_url && (
        <div class="check">
          <input id={`${id}-remove`} type="checkbox" checked={form.removeLogo} onChange={set('removeLogo')} />
          <label for={`${id}-remove`}>{t('settings.brands.removeLogo')}</label>
        </div>
      )}
      <div class="actions">
        <button type="submit" disabled={busy}>
          {b ? t('settings.save') : t('settings.brands.create')}
        </button>
        {props.onCancel && (
          <button type="button" class="secondary" onClick={props.onCancel}>
            {t('settings.cancel')}
          </button>
        )}
      </div>
    </form>
  );
}

export function Brands(props: TScreenProps) {
  const { t } = useWords();
  const calls = settingsApi(props.api);
  const admin = props.session.user.is_admin;
  const [brands, setBrands] = useState<TBrandRow[] | undefined>(undefined);
  const [editing, setEditing] = useState<string | undefined>(undefined);
  const [said, setSaid] = useState('');
  const [failed, setFailed] = useState('');
  const [formKey, setFormKey] = useState(0);

  const failing = (err: unknown) => {
    if (err instanceof ApiError && err.status === 401) return props.onSessionEnded();
    setFailed(t('settings.failed'));
  };
  const load = async () => {
    try {
      setBrands(await calls.listBrands());
    } catch (err) {
      failing(err);
    }
  };
  useEffect(() => {
    void load();
  }, []);

  const saved = async (word: string, name: string) => {
    setFailed('');
    setSaid(t(word, { name }));
    setEditing(undefined);
    await load();
  };

  async function remove(b: TBrandRow) {
    try {
      await calls.deleteBrand(b.id);
      await saved('settings.brands.deleted', b.name);
    } catch (err) {
      failing(err);
    }
  }

  return (
    <div class="settings">
      <h1>{t('settings.brands.heading')}</h1>
      <p>{t('settings.brands.intro')}</p>
      {!admin && <p class="notice">{t('settings.adminsOnly')}</p>}
      <p role="status" class="said">
        {said}
      </p>
      {failed && (
        <p class="error" role="alert">
          {failed}
        </p>
      )}
      {brands === undefined ? (
        !failed && <p>{t('settings.loading')}</p>
      ) : brands.length === 0 ? (
        <p>{t('settings.brands.none')}</p>
      ) : (
        <ul class="brand-list">
          {brands.map((b) => (
            <li key={b.id} class="brand-card">
              <h2>
                <bdi>{b.name}</bdi>
              </h2>
              <BrandPreview brand={b} />
              {admin &&
                (editing === b.id ? (
                  <BrandForm
                    brand={b}
                    onCancel={() => setEditing(undefined)}
                    onSave={async (w) => {
                      await calls.changeBrand(b.id, w).catch((err) => {
                        if (!(err instanceof ApiError && err.status === 400)) failing(err);
                        throw err;
                      });
                      await saved('settings.brands.saved', w.name);
                    }}
                  />
                ) : (
                  <div class="actions">
                    <button
                      type="button"
                      class="secondary"
                      aria-label={t('settings.brands.editNamed', { name: b.name })}
                      onClick={() => setEditing(b.id)}
                    >
                      {t('settings.brands.edit')}
                    </button>
                    <button
                      type="button"
                      class="secondary danger"
                      aria-label={t('settings.brands.deleteNamed', { name: b.name })}
                      onClick={() => remove(b)}
                    >
                      {t('settings.brands.delete')}
                    </button>
                  </div>
                ))}
            </li>
          ))}
        </ul>
      )}
      {admin && (
        <section aria-labelledby="new-brand">
          <h2 id="new-brand">{t('settings.brands.newHeading')}</h2>
          <BrandForm
            key={formKey}
            onSave={async (w) => {
              const made = await calls.createBrand(w).catch((err) => {
                if (!(err instanceof ApiError && err.status === 400)) failing(err);
                throw err;
              });
              setFormKey((k) => k + 1);
              await saved('settings.brands.created', made.name);
            }}
          />
        </section>
      )}
    </div>
  );
}
