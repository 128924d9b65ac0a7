// The bundle's signers, one card each: how they are reached, their turn, where they are (opened,
// signed, declined) and how they prove who they are; and what the sender may do for each now:
// remind (a message with a fresh link), a link to sign now (a signer in the sender's app), or
// hand the packet over to another person (who is then sent the request).
import { useState } from 'preact/hooks';
import { ApiError } from '../../api';
import type { TBundle, TBundleApi, TEvent, TPacket } from '../../bundle-api';
import { useWords } from '../../words';
import { HandOver } from './hand-over';

const OUT = ['se', 'st'];
const FINISHED = ['co', 'ca', 'ex', 'fa'];

export function Signers(props: {
  bundle: TBundle;
  events: TEvent[];
  calls: TBundleApi;
  /** Something changed: load the bundle again. */
  onChanged: () => void;
  /** Says a result in the page's live region. */
  say: (words: string, failed?: boolean) => void;
  onFailure: (err: unknown) => void;
}) {
  const { t, lang } = useWords();
  const format = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' });
  const { bundle } = props;
  const declined = new Set(props.events.filter((e) => e.kind === 'pd').map((e) => e.packet_id));
  const open = !FINISHED.includes(bundle.status);

  return (
    <section class="bundle-section" aria-labelledby="signers-heading">
      <h2 id="signers-heading">{t('bundle.signers.heading')}</h2>
      <ul class="packets">
        {[...bundle.packets]
          .sort((a, b) => (a.order ?? 0) - (b.order ?? 0))
          .map((p) => (
            <li key={p.id} class="packet">
              <h3>
                <bdi>{p.name}</bdi>
              </h3>
              <dl class="bundle-facts">
                {p.email && <Fact term={t('bundle.signers.email')} value={<bdi>{p.email}</bdi>} />}
                {p.phone && <Fact term={t('bundle.signers.phone')} value={<bdi dir="ltr">{p.phone}</bdi>} />}
                <Fact term={t('bundle.signers.delivery')} value={t(`bundle.delivery.${p.deliver_via}`)} />
                {bundle.in_order && p.order !== null && (
                  <Fact term={t('bundle.signers.order')} value={String(p.order + 1)} />
                )}
                <Fact
                  term={t('bundle.signers.status')}
                  value={
                    <span class={`status status-${declined.has(p.id) ? 'ca' : p.status}`}>
                      {declined.has(p.id)
                        ? t('bundle.signers.declined')
                        : t(`bundle.packetStatus.${p.status}`)}
                    </span>
                  }
                />
                {p.last_accessed_at && (
                  <Fact
                    term={t('bundle.signers.opened')}
                    value={format.format(new Date(p.last_accessed_at))}
                  />
                )}
                {p.completed_at && (
                  <Fact term={t('bundle.signers.signed')} value={format.format(new Date(p.completed_at))} />
                )}
                <Fact term={t('bundle.signers.auth')} value={authWords(t, p)} />
              </dl>
              {open && <PacketActions {...props} packet={p} />}
            </li>
          ))}
      </ul>
    </section>
  );
}

function Fact(props: { term: string; value: preact.ComponentChild }) {
  return (
    <div>
      <dt>{props.term}</dt>
      <dd>{props.value}</dd>
    </div>
  );
}

function authWords(t: (k: string) => string, p: TPacket): string {
  const ways = [p.auth_sms && 'sms', p.auth_selfie && 'selfie', p.auth_id && 'id'].filter(Boolean);
  return ways.length === 0 ? t('bundle.auth.none') : ways.map((w) => t(`bundle.auth.${w}`)).join(', ');
}

function PacketActions(props: Parameters<typeof Signers>[0] & { packet: TPacket }) {
  const { t } = useWords();
  const { bundle, packet: p, calls } = props;
  const [busy, setBusy] = useState(false);
  const [link, setLink] = useState<{ url: string; expires: string } | undefined>(undefined);
  const [handing, setHanding] = useState(false);
  const byMessage = p.deliver_via === 'email' || p.deliver_via === 'phone';
  const mayRemind = byMessage && OUT.includes(bundle.status) && OUT.includes(p.status);
  const mayLink =
    p.deliver_via === 'embed' && OUT.includes(bundle.status) && ['re', 'se', 'st'].includes(p.status);
  const mayHandOver =
    p.deliver_via !== 'kiosk' && OUT.includes(bundle.status) && ['re', 'se', 'st'].includes(p.status);

  async function act(step: () => Promise<void>) {
    setBusy(true);
    try {
      await step();
      props.onChanged();
    } catch (err) {
      props.onFailure(err);
    } finally {
      setBusy(false);
    }
  }

  const remind = () =>
    act(async () => {
      try {
        await calls.remind(p.id);
        props.say(t('bundle.remind.done', { name: p.name }));
      } catch (err) {
        if (err instanceof ApiError && err.status === 400) return props.say(t('bundle.remind.tooSoon'), true);
        throw err;
      }
    });

  return (
    <div class="actions">
      {mayRemind && (
        <button type="button" class="secondary" disabled={busy} onClick={remind}>
          {t('bundle.remind.button', { name: p.name })}
        </button>
      )}
      {mayLink && (
        <button
          type="button"
          class="secondary"
          disabled={busy}
          onClick={() => act(async () => setLink(await calls.embedUrl(p.id)))}
        >
          {t('bundle.link.button', { name: p.name })}
        </button>
      )}
      {mayHandOver && !handing && (
        <button type="button" class="secondary" disabled={busy} onClick={() => setHanding(true)}>
          {t('bundle.handOver.button', { name: p.name })}
        </button>
      )}
      {link && (
        <div class="signing-link">
          <label for={`link-${p.id}`}>{t('bundle.link.label')}</label>
          <input
            id={`link-${p.id}`}
            readOnly
            value={link.url}
            dir="ltr"
            onFocus={(e) => e.currentTarget.select()}
          />
          <p class="hint">{t('bundle.link.hint')}</p>
        </div>
      )}
      {handing && (
        <HandOver
          packet={p}
          calls={calls}
          onDone={(words) => {
            setHanding(false);
            props.say(words);
            props.onChanged();
          }}
          onCancel={() => setHanding(false)}
          onFailure={props.onFailure}
        />
      )}
    </div>
  );
}
