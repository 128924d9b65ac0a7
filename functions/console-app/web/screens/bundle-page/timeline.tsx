// The bundle's events, oldest first, in the reader's words: what happened, to which signer, who
// did it (the API names signers and users), and when, in the reader's own way of writing times.
import type { TEvent, TPacket } from '../../bundle-api';
import { useWords } from '../../words';

/** `pr` stands for two things; its stored words tell a signer in person from an embedded one. */
const IN_PERSON = 'Ready for signing in person';

export function eventWords(t: (k: string) => string, e: TEvent): string {
  const key = e.kind === 'pr' && e.description.startsWith(IN_PERSON) ? 'prInPerson' : e.kind;
  const words = t(`bundle.events.${key}`);
  // A kind this page does not know yet (a newer service): the service's own words.
  return words === `bundle.events.${key}` ? e.description : words;
}

export function Timeline(props: { events: TEvent[]; packets: TPacket[]; userId: string }) {
  const { t, lang } = useWords();
  const format = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'medium' });
  const signerName = (id: string | null) => props.packets.find((p) => p.id === id)?.name;

  const byWhom = (e: TEvent): string | undefined => {
    const a = e.actor;
    if (!a) return undefined;
    if (a.type === 'user') {
      if (a.id === props.userId) return t('bundle.actor.you');
      return a.name ? t('bundle.actor.named', { name: a.name }) : t('bundle.actor.user');
    }
    if (a.type === 'signer') {
      const name = a.name ?? signerName(a.id);
      return name ? t('bundle.actor.named', { name }) : t('bundle.actor.signer');
    }
    if (a.type === 'system') return undefined;
    return t(`bundle.actor.${a.type}`);
  };

  return (
    <section class="bundle-section" aria-labelledby="timeline-heading">
      <h2 id="timeline-heading">{t('bundle.timeline.heading')}</h2>
      <ol class="timeline">
        {props.events.map((e, i) => {
          const who = byWhom(e);
          // The signer an event is about, unless they are the one who acted.
          const about =
            e.actor?.type === 'signer' && e.actor.id === e.packet_id ? undefined : signerName(e.packet_id);
          return (
            <li key={`${e.timestamp}-${i}`}>
              <time dateTime={e.timestamp}>{format.format(new Date(e.timestamp))}</time>
              <span class="what">{eventWords(t, e)}</span>
              {about && (
                <span class="about">
                  {t('bundle.timeline.signer')} <bdi>{about}</bdi>
                </span>
              )}
              {who && <span class="actor">{who}</span>}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
