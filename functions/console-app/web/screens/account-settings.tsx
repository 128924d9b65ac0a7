// The account's defaults: the language signers read, where they go after signing, the paper of
// image documents and the reminders new bundles start with. Every user reads them; admins change
// them, in one request.
import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../api';
import { LANGUAGES, nativeName } from '../i18n';
import type { TScreenProps } from '../routes';
import { settingsApi, type TAccountSettings } from '../settings-api';
import { useWords } from '../words';

interface TForm {
  language: string;
  redirect: string;
  paper: 'letter' | 'a4';
  remind: boolean;
  offset: string;
  interval: string;
  expires: string;
}

const formOf = (a: TAccountSettings): TForm => ({
  language: a.language ?? '',
  redirect: a.signing_redirect_url ?? '',
  paper: a.image_page_size,
  remind: a.reminders?.send_reminders ?? false,
  offset: String(a.reminders?.reminder_offset ?? ''),
  interval: String(a.reminders?.reminder_interval ?? ''),
  expires: String(a.reminders?.reminder_expires ?? ''),
});

const DAYS = /^(?:[0-9]|[12][0-9]|30)$/;

export function AccountSettings(props: TScreenProps) {
  const { t } = useWords();
  const calls = settingsApi(props.api);
  const [account, setAccount] = useState<TAccountSettings | undefined>(undefined);
  const [form, setForm] = useState<TForm | undefined>(undefined);
  const [said, setSaid] = useState('');
  const [failed, setFailed] = useState('');
  const [bad, setBad] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);

  const failing = (err: unknown, key = 'settings.failed') => {
    if (err instanceof ApiError && err.status === 401) return props.onSessionEnded();
    setFailed(t(key));
  };
  useEffect(() => {
    calls
      .account()
      .then((a) => {
        setAccount(a);
        setForm(formOf(a));
      })
      .catch(failing);
  }, []);

  if (!account || !form) {
    return (
      <div class="settings">
        <h1>{t('settings.account.heading')}</h1>
        {failed ? (
          <p class="error" role="alert">
            {failed}
          </p>
        ) : (
          <p>{t('settings.loading')}</p>
        )}
      </div>
    );
  }

  const change =
    (k: keyof TForm) =>
    (e: Event): void => {
      const el = e.currentTarget as HTMLInputElement;
      setForm({ ...form, [k]: k === 'remind' ? el.checked : el.value });
    };

  async function save(e: Event) {
    e.preventDefault();
    if (!form) return;
    setSaid('');
    setFailed('');
    const days = (['offset', 'interval', 'expires'] as const).filter(
      (k) => form[k] !== '' && !DAYS.test(form[k]),
    );
    const wrong = [
      ...days,
      ...(form.redirect !== '' && !/^https?:\/\/\S+$/.test(form.redirect) ? ['redirect'] : []),
    ];
    setBad(wrong);
    if (wrong[0]) return document.getElementById(`account-${wrong[0]}`)?.focus();
    setBusy(true);
    try {
      const a = await calls.changeAccount({
        language: form.language || null,
        signing_redirect_url: form.redirect.trim() || null,
        image_page_size: form.paper,
        reminders: form.remind
          ? {
              send_reminders: true,
              ...(form.offset !== '' ? { reminder_offset: Number(form.offset) } : {}),
              ...(form.interval !== '' ? { reminder_interval: Number(form.interval) } : {}),
              ...(form.expires !== '' ? { reminder_expires: Number(form.expires) } : {}),
            }
          : null,
      });
      setAccount(a);
      setForm(formOf(a));
      setSaid(t('settings.account.saved'));
    } catch (err) {
      failing(err, 'settings.account.refused');
    } finally {
      setBusy(false);
    }
  }

  const dayField = (k: 'offset' | 'interval' | 'expires') => (
    <div class="field">
      <label for={`account-${k}`}>{t(`settings.account.${k}`)}</label>
      <input
        id={`account-${k}`}
        type="number"
        inputMode="numeric"
        min={0}
        max={30}
        value={form[k]}
        onInput={change(k)}
        aria-invalid={bad.includes(k) ? 'true' : undefined}
        aria-describedby={bad.includes(k) ? 'account-days-error' : undefined}
      />
    </div>
  );

  return (
    <div class="settings">
      <h1>{t('settings.account.heading')}</h1>
      <p>{t('settings.account.intro', { account: account.name })}</p>
      {!account.can_change && <p class="notice">{t('settings.adminsOnly')}</p>}
      <form onSubmit={save} noValidate>
        <fieldset class="plain" disabled={!account.can_change}>
          <div class="field">
            <label for="account-language">{t('settings.account.language')}</label>
            <p id="account-language-hint" class="hint">
              {t('settings.account.languageHint')}
            </p>
            <select
              id="account-language"
              value={form.language}
              onChange={change('language')}
              aria-describedby="account-language-hint"
            >
              <option value="">{t('settings.account.browserLanguage')}</option>
              {LANGUAGES.map((l) => (
                <option key={l} value={l} lang={l}>
                  {nativeName(l)}
                </option>
              ))}
            </select>
          </div>
          <div class="field">
            <label for="account-redirect">{t('settings.account.redirect')}</label>
            <p id="account-redirect-hint" class="hint">
              {t('settings.account.redirectHint')}
            </p>
            <input
              id="account-redirect"
              type="url"
              dir="ltr"
              maxLength={2048}
              value={form.redirect}
              onInput={change('redirect')}
              aria-invalid={bad.includes('redirect') ? 'true' : undefined}
              aria-describedby={
                bad.includes('redirect')
                  ? 'account-redirect-hint account-redirect-error'
                  : 'account-redirect-hint'
              }
            />
            {bad.includes('redirect') && (
              <p id="account-redirect-error" class="error">
                {t('settings.brands.badRedirect')}
              </p>
            )}
          </div>
          <div class="field">
            <label for="account-paper">{t('settings.account.paper')}</label>
            <select id="account-paper" value={form.paper} onChange={change('paper')}>
              <option value="letter">{t('settings.account.letter')}</option>
              <option value="a4">{t('settings.account.a4')}</option>
            </select>
          </div>
          <fieldset>
            <legend>{t('settings.account.reminders')}</legend>
            {!account.features.reminders && <p class="hint">{t('settings.account.remindersOff')}</p>}
            <div class="check">
              <input id="account-remind" type="checkbox" checked={form.remind} onChange={change('remind')} />
              <label for="account-remind">{t('settings.account.remind')}</label>
            </div>
            {form.remind && (
              <div class="days">
                {dayField('offset')}
                {dayField('interval')}
                {dayField('expires')}
              </div>
            )}
            {bad.some((k) => k !== 'redirect') && (
              <p id="account-days-error" class="error">
                {t('settings.account.badDays')}
              </p>
            )}
          </fieldset>
          {account.can_change && (
            <button type="submit" disabled={busy}>
              {t('settings.save')}
            </button>
          )}
        </fieldset>
      </form>
      <p role="status" class="said">
        {said}
      </p>
      {failed && (
        <p class="error" role="alert">
          {failed}
        </p>
      )}
    </div>
  );
}
