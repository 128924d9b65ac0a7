// Hands a packet to another person (POST /packets/{id}/reassign/): the packet keeps its place and
// fields, the earlier signer's links stop working, and the new person is sent the request.
import { useState } from 'preact/hooks';
import { ApiError } from '../../api';
import type { TBundleApi, TPacket } from '../../bundle-api';
import { useWords } from '../../words';

export function HandOver(props: {
  packet: TPacket;
  calls: TBundleApi;
  onDone: (words: string) => void;
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
      props.onDone(t('bundle.handOver.done', { name: to.name }));
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
