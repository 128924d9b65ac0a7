// What may change while a bundle is a draft or out with its signers (PATCH /bundles/{id}/): its
// label, its expiry date and whether automatic reminders go out. Only what the reader changed is
// sent, so a setting the account's plan does not have is never touched by accident.
import { useState } from 'preact/hooks';
import { ApiError } from '../../api';
import type { TBundle, TBundleApi, TBundleChange } from '../../bundle-api';
import { useWords } from '../../words';

const day = (iso: string | null) => (iso ? iso.slice(0, 10) : '');

export function ChangeForm(props: {
  bundle: TBundle;
  calls: TBundleApi;
  onDone: (words: string) => void;
  onFailure: (err: unknown) => void;
}) {
  const { t } = useWords();
  const b = props.bundle;
  const [label, setLabel] = useState(b.label);
  const [expires, setExpires] = useState(day(b.expires));
  const [reminders, setReminders] = useState(b.send_reminders);
  const [busy, setBusy] = useState(false);
  const [refused, setRefused] = useState<string[] | undefined>(undefined);

  async function submit(e: Event) {
    e.preventDefault();
    const change: TBundleChange = {
      ...(label !== b.label ? { label } : {}),
      ...(expires && expires !== day(b.expires) ? { expires } : {}),
      ...(reminders !== b.send_reminders ? { send_reminders: reminders } : {}),
    };
    if (Object.keys(change).length === 0) return props.onDone(t('bundle.change.nothing'));
    setBusy(true);
    setRefused(undefined);
    try {
      await props.calls.change(b.id, change);
      props.onDone(t('bundle.change.done'));
    } catch (err) {
      if (err instanceof ApiError && err.status === 400) setRefused(err.fields ?? []);
      else props.onFailure(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <details class="change">
      <summary>{t('bundle.change.heading')}</summary>
      <form onSubmit={submit}>
        <div>
          <label for="change-label">{t('bundle.change.label')}</label>
          <input
            id="change-label"
            maxLength={255}
            value={label}
            onInput={(e) => setLabel(e.currentTarget.value)}
          />
        </div>
        <div>
          <label for="change-expires">{t('bundle.change.expires')}</label>
          <input
            id="change-expires"
            type="date"
            value={expires}
            min={new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)}
            onInput={(e) => setExpires(e.currentTarget.value)}
          />
        </div>
        <div class="check-row">
          <input
            id="change-reminders"
            type="checkbox"
            checked={reminders}
            onChange={(e) => setReminders(e.currentTarget.checked)}
          />
          <label for="change-reminders">{t('bundle.change.reminders')}</label>
        </div>
        {refused && (
          <p class="error" role="alert">
            {t('bundle.change.refused', {
              fields: refused.map((f) => t(`bundle.change.field.${f}`, { defaultValue: f })).join(', '),
            })}
          </p>
        )}
        <button type="submit" disabled={busy}>
          {t('bundle.change.submit')}
        </button>
      </form>
    </details>
  );
}
