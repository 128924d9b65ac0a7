// Hands a packet to another person: the packet keeps its place and fields, its name and email (or
// phone) change (PATCH /packets/{id}/), and when the bundle is out a reminder sends the new
// person a fresh link at once.
import { useState } from 'preact/hooks';
import { ApiError } from '../../api';
import type { TBundleApi, TPacket } from '../../bundle-api';
import { useWords } from '../../words';

export function HandOver(props: {
  packet: TPacket;
  calls: TBundleApi;
  /** Whether the bundle is out with its signers, so the new person can be sent their link now. */
  bundleOut: boolean;
  onDone: (words: string, failed?: boolean) => void;
  onCancel: () => void;
  onFailure: (err: unknown) => void;
}) {
  const { t } = useWords();
  const p = props.packet;
  const byPhone = p.deliver_via === 'phone';
  const [name, setName] = useState('');
  const [contact, setContact] = useState('');
  const [busy, setBusy] = useState(false);
  const [refused, setRefused] = useState(false);
  const id = (part: string) => `handover-${part}-${p.id}`;

  async function submit(e: Event) {
    e.preventDefault();
    setBusy(true);
    setRefused(false);
    try {
      const to = { name: name.trim(), ...(byPhone ? { phone: contact.trim() } : { email: contact.trim() }) };
      await props.calls.handOver(p.id, to);
      if (!props.bundleOut) return props.onDone(t('bundle.handOver.done', { name: to.name }));
      try {
        await props.calls.remind(p.id);
        props.onDone(t('bundle.handOver.doneSent', { name: to.name }));
      } catch (err) {
        if (!(err instanceof ApiError && err.status === 400)) throw err;
        props.onDone(t('bundle.handOver.doneLater', { name: to.name }), true);
      }
    } catch (err) {
      if (err instanceof ApiError && err.status === 400) setRefused(true);
      else props.onFailure(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form class="hand-over" onSubmit={submit} aria-labelledby={id('title')}>
      <h4 id={id('title')}>{t('bundle.handOver.title', { name: p.name })}</h4>
      <div>
        <label for={id('name')}>{t('bundle.handOver.name')}</label>
        <input
          id={id('name')}
          required
          maxLength={255}
          autoComplete="off"
          value={name}
          onInput={(e) => setName(e.currentTarget.value)}
        />
      </div>
      <div>
        <label for={id('contact')}>{byPhone ? t('bundle.handOver.phone') : t('bundle.handOver.email')}</label>
        <input
          id={id('contact')}
          // One of two types: Preact's types take a literal, so the choice is named as one.
          type={(byPhone ? 'tel' : 'email') as 'email'}
          dir="ltr"
          required
          maxLength={254}
          autoComplete="off"
          value={contact}
          onInput={(e) => setContact(e.currentTarget.value)}
        />
      </div>
      {refused && (
        <p class="error" role="alert">
          {t('bundle.handOver.refused')}
        </p>
      )}
      <div class="actions">
        <button type="submit" disabled={busy}>
          {t('bundle.handOver.submit')}
        </button>
        <button type="button" class="secondary" onClick={props.onCancel}>
          {t('bundle.handOver.cancel')}
        </button>
      </div>
    </form>
  );
}
