// The signed-in user's passkeys: the ones they have (named, when added and last used), adding
// one from this device, and removing one they no longer use. Each passkey then signs in from
// the sign-in screen without an email link.
import { browserSupportsWebAuthn } from '@simplewebauthn/browser';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api';
import { passkeysApi, type TPasskeyRow, wasCancelled } from '../passkeys-api';
import type { TScreenProps } from '../routes';
import { useWords } from '../words';

const NAME_MAX = 60;

/**
 * What the last action said: a success, politely; a problem, at once. Kept as the message's key,
 * so it follows the reader into another language.
 */
type TSaid = { kind: 'status' | 'alert'; key: string; values?: Record<string, string> } | undefined;

export function Passkeys(props: TScreenProps) {
  const { t, lang } = useWords();
  const calls = passkeysApi(props.api);
  const [rows, setRows] = useState<TPasskeyRow[] | undefined>(undefined);
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [said, setSaid] = useState<TSaid>(undefined);
  const field = useRef<HTMLInputElement>(null);
  const supported = browserSupportsWebAuthn();

  /** A failed call: back to signing in on a 401, else say what to do. */
  const failed = (err: unknown, otherwise: string) => {
    if (err instanceof ApiError && err.status === 401) return props.onSessionEnded();
    setSaid({
      kind: 'alert',
      key: err instanceof ApiError && err.status < 500 ? otherwise : 'errors.unreachable',
    });
  };

  const load = () =>
    calls.list().then(setRows, (err) => {
      setRows([]);
      failed(err, 'errors.unreachable');
    });
  useEffect(() => {
    void load();
  }, []);

  async function add(e: Event) {
    e.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) {
      setSaid({ kind: 'alert', key: 'passkeys.nameMissing' });
      return field.current?.focus();
    }
    setBusy(true);
    setSaid(undefined);
    try {
      const added = await calls.add(trimmed);
      setName('');
      setSaid({ kind: 'status', key: 'passkeys.added', values: { name: added.name } });
      await load();
    } catch (err) {
      if (wasCancelled(err)) setSaid({ kind: 'alert', key: 'passkeys.cancelled' });
      else if (err instanceof Error && err.name === 'InvalidStateError')
        setSaid({ kind: 'alert', key: 'passkeys.already' });
      else failed(err, 'passkeys.addFailed');
    } finally {
      setBusy(false);
    }
  }

  async function remove(row: TPasskeyRow) {
    setBusy(true);
    setSaid(undefined);
    try {
      await calls.remove(row.id);
      setSaid({ kind: 'status', key: 'passkeys.removed', values: { name: row.name } });
    } catch (err) {
      failed(err, 'passkeys.removeFailed');
    } finally {
      setBusy(false);
      await load();
    }
  }

  const dates = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' });
  const when = (iso: string) => dates.format(new Date(iso));
  const invalid = said?.key === 'passkeys.nameMissing';

  return (
    <>
      <h1>{t('passkeys.heading')}</h1>
      <p>{t('passkeys.intro')}</p>
      <div aria-live="polite">
        {said?.kind === 'status' && <p class="notice">{t(said.key, said.values)}</p>}
      </div>
      {said?.kind === 'alert' && (
        <p id="passkey-error" class="error" role="alert">
          {t(said.key, said.values)}
        </p>
      )}
      <section aria-labelledby="passkeys-yours">
        <h2 id="passkeys-yours">{t('passkeys.yours')}</h2>
        {rows === undefined ? (
          <p role="status">{t('loading')}</p>
        ) : rows.length === 0 ? (
          <p>{t('passkeys.none')}</p>
        ) : (
          <ul class="passkeys">
            {rows.map((row) => (
              <li key={row.id}>
                <div>
                  <strong>
                    <bdi>{row.name}</bdi>
                  </strong>
                  <span class="muted">
                    {t('passkeys.addedOn', { date: when(row.created) })} ·{' '}
                    {row.last_used
                      ? t('passkeys.lastUsed', { date: when(row.last_used) })
                      : t('passkeys.notUsed')}
                  </span>
                </div>
                <button
                  type="button"
                  class="secondary"
                  disabled={busy}
                  aria-label={t('passkeys.removeNamed', { name: row.name })}
                  onClick={() => remove(row)}
                >
                  {t('passkeys.remove')}
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="passkeys-add">
        <h2 id="passkeys-add">{t('passkeys.addHeading')}</h2>
        {supported ? (
          <form onSubmit={add} noValidate>
            <label for="passkey-name">{t('passkeys.name')}</label>
            <p id="passkey-name-hint" class="muted">
              {t('passkeys.nameHint')}
            </p>
            <input
              id="passkey-name"
              ref={field}
              type="text"
              maxLength={NAME_MAX}
              autocomplete="off"
              value={name}
              onInput={(e) => setName((e.currentTarget as HTMLInputElement).value)}
              aria-describedby={invalid ? 'passkey-name-hint passkey-error' : 'passkey-name-hint'}
              aria-invalid={invalid ? 'true' : undefined}
            />
            <button type="submit" disabled={busy}>
              {t('passkeys.add')}
            </button>
          </form>
        ) : (
          <p>{t('passkeys.unsupported')}</p>
        )}
      </section>
    </>
  );
}
