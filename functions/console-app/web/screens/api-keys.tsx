// API keys: the reader's own (an admin's: all of the account's), making a named one, whose
// secret is shown here once and never again (the service keeps its hash alone), and revoking one.
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { ApiError, type TSession } from '../api';
import type { TScreenProps } from '../routes';
import { settingsApi, type TApiKeyRow } from '../settings-api';
import { useWords } from '../words';

export function ApiKeys(props: TScreenProps) {
  const { t, lang } = useWords();
  const calls = settingsApi(props.api);
  const [keys, setKeys] = useState<TApiKeyRow[] | undefined>(undefined);
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState('');
  const [made, setMade] = useState<{ name: string; key: string } | undefined>(undefined);
  const [said, setSaid] = useState('');
  const [failed, setFailed] = useState('');
  const [busy, setBusy] = useState(false);
  const madeHeading = useRef<HTMLHeadingElement>(null);
  const nameField = useRef<HTMLInputElement>(null);

  /** A failed call: a 401 ends the session, anything else is said on the screen. */
  const failing = (err: unknown, key: string) => {
    if (err instanceof ApiError && err.status === 401) return props.onSessionEnded();
    setFailed(t(key));
  };

  const load = async () => {
    try {
      setKeys(await calls.listKeys());
    } catch (err) {
      failing(err, 'settings.keys.loadFailed');
    }
  };
  useEffect(() => {
    void load();
  }, []);
  // The new key takes the focus, so a screen reader reads it and the copy button comes next.
  useLayoutEffect(() => {
    if (made) madeHeading.current?.focus();
  }, [made]);

  async function create(e: Event) {
    e.preventDefault();
    setFailed('');
    setSaid('');
    if (name.trim() === '') {
      setNameError(t('settings.keys.nameMissing'));
      nameField.current?.focus();
      return;
    }
    setNameError('');
    setBusy(true);
    try {
      const key = await calls.createKey(name.trim());
      setMade({ name: key.name ?? '', key: key.key });
      setName('');
      await load();
    } catch (err) {
      failing(err, 'settings.keys.createFailed');
    } finally {
      setBusy(false);
    }
  }

  async function revoke(k: TApiKeyRow) {
    setFailed('');
    setSaid('');
    try {
      await calls.revokeKey(k.id);
      setSaid(t('settings.keys.revoked', { name: k.name ?? k.prefix }));
      await load();
    } catch (err) {
      failing(err, 'settings.keys.revokeFailed');
    }
  }

  async function copy() {
    if (!made) return;
    try {
      await navigator.clipboard.writeText(made.key);
      setSaid(t('settings.keys.copied'));
    } catch {
      setSaid(t('settings.keys.copyFailed'));
    }
  }

  const dates = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' });
  const owner = (k: TApiKeyRow, s: TSession) => (k.user === s.user.id ? t('settings.keys.you') : k.user);

  return (
    <div class="settings">
      <h1>{t('settings.keys.heading')}</h1>
      <p>{t('settings.keys.intro')}</p>

      {made && (
        <section class="secret" aria-labelledby="made-heading">
          <h2 id="made-heading" tabIndex={-1} ref={madeHeading}>
            {t('settings.keys.madeHeading', { name: made.name })}
          </h2>
          <p>{t('settings.keys.onlyOnce')}</p>
          <label for="made-key">{t('settings.keys.theKey')}</label>
          <input
            id="made-key"
            class="mono wide"
            readOnly
            value={made.key}
            onFocus={(e) => e.currentTarget.select()}
          />
          <div class="actions">
            <button type="button" onClick={copy}>
              {t('settings.keys.copy')}
            </button>
            <button type="button" class="secondary" onClick={() => setMade(undefined)}>
              {t('settings.keys.done')}
            </button>
          </div>
        </section>
      )}

      <form class="inline-form" onSubmit={create} noValidate>
        <h2>{t('settings.keys.newHeading')}</h2>
        <label for="key-name">{t('settings.keys.name')}</label>
        <p id="key-name-hint" class="hint">
          {t('settings.keys.nameHint')}
        </p>
        <input
          id="key-name"
          ref={nameField}
          value={name}
          maxLength={100}
          autocomplete="off"
          aria-invalid={nameError ? 'true' : undefined}
          aria-describedby={nameError ? 'key-name-hint key-name-error' : 'key-name-hint'}
          onInput={(e) => setName((e.currentTarget as HTMLInputElement).value)}
        />
        {nameError && (
          <p id="key-name-error" class="error">
            {nameError}
          </p>
        )}
        <button type="submit" disabled={busy}>
          {t('settings.keys.create')}
        </button>
      </form>

      <p role="status" class="said">
        {said}
      </p>
      {failed && (
        <p class="error" role="alert">
          {failed}
        </p>
      )}

      {keys === undefined ? (
        !failed && <p>{t('settings.loading')}</p>
      ) : keys.length === 0 ? (
        <p>{t('settings.keys.none')}</p>
      ) : (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region takes focus (WCAG 2.1.1).
        <section class="table-wrap" aria-labelledby="keys-caption" tabIndex={0}>
          <table>
            <caption id="keys-caption">{t('settings.keys.caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('settings.keys.name')}</th>
                <th scope="col">{t('settings.keys.prefix')}</th>
                {props.session.user.is_admin && <th scope="col">{t('settings.keys.owner')}</th>}
                <th scope="col">{t('settings.keys.created')}</th>
                <th scope="col">{t('settings.keys.state')}</th>
              </tr>
            </thead>
            <tbody>
              {keys.map((k) => (
                <tr key={k.id}>
                  <th scope="row">
                    <bdi>{k.name ?? t('settings.keys.unnamed')}</bdi>
                  </th>
                  <td>
                    <span class="mono">{k.prefix}…</span>
                  </td>
                  {props.session.user.is_admin && (
                    <td>
                      <bdi>{owner(k, props.session)}</bdi>
                    </td>
                  )}
                  <td>{dates.format(new Date(k.created))}</td>
                  <td>
                    {k.revoked ? (
                      t('settings.keys.revokedOn', { date: dates.format(new Date(k.revoked)) })
                    ) : (
                      <button
                        type="button"
                        class="secondary danger"
                        aria-label={t('settings.keys.revokeNamed', { name: k.name ?? k.prefix })}
                        onClick={() => revoke(k)}
                      >
                        {t('settings.keys.revoke')}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
    </div>
  );
}
