// Finding a signer among the account's Persons as one types (List Persons' `search`): each person
// found is a button that adds them as a signer, with their first email and phone and the Person's
// id, so the bundle is linked to them. A newer search's answer always wins over an older one's.
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api';
import type { TPersonRow, TSendApi } from '../send-api';
import type { TSigner } from '../send-draft';
import { useWords } from '../words';

const PAUSE_MS = 250;

export function PersonSearch(props: {
  calls: TSendApi;
  onSessionEnded: () => void;
  onPick: (signer: Partial<TSigner>) => void;
}) {
  const { t } = useWords();
  const [text, setText] = useState('');
  const [found, setFound] = useState<TPersonRow[] | undefined>(undefined);
  const [failed, setFailed] = useState(false);
  const asked = useRef(0);

  useEffect(() => {
    const search = text.trim();
    const mine = ++asked.current;
    if (search.length < 2) {
      setFound(undefined);
      return;
    }
    const timer = setTimeout(() => {
      props.calls.searchPersons(search.slice(0, 200)).then(
        (rows) => {
          if (mine !== asked.current) return;
          setFound(rows);
          setFailed(false);
        },
        (err) => {
          if (err instanceof ApiError && err.status === 401) return props.onSessionEnded();
          if (mine === asked.current) setFailed(true);
        },
      );
    }, PAUSE_MS);
    return () => clearTimeout(timer);
  }, [text]);

  function pick(p: TPersonRow) {
    props.onPick({
      name: p.name,
      email: p.channels.find((c) => c.email)?.email ?? '',
      phone: p.channels.find((c) => c.phone)?.phone ?? '',
      personId: p.id,
    });
    setText('');
  }

  return (
    <search class="person-search">
      <label for="send-person-search">{t('send.persons.search')}</label>
      <input
        id="send-person-search"
        type="search"
        value={text}
        maxLength={200}
        autoComplete="off"
        aria-describedby="send-person-hint"
        onInput={(e) => setText((e.currentTarget as HTMLInputElement).value)}
      />
      <p id="send-person-hint" class="muted">
        {t('send.persons.hint')}
      </p>
      <div role="status">
        {failed ? (
          <p class="error">{t('send.persons.failed')}</p>
        ) : found?.length === 0 ? (
          <p>{t('send.persons.none')}</p>
        ) : found ? (
          <p class="visually-hidden">{t('send.persons.found', { total: found.length })}</p>
        ) : null}
      </div>
      {found && found.length > 0 && (
        <ul class="persons-found" aria-label={t('send.persons.results')}>
          {found.map((p) => {
            const contact = [p.channels.find((c) => c.email)?.email, p.channels.find((c) => c.phone)?.phone]
              .filter(Boolean)
              .join(' · ');
            return (
              <li key={p.id}>
                <button type="button" class="secondary" onClick={() => pick(p)}>
                  {t('send.persons.add', { name: p.name })}
                  {contact && (
                    <span class="muted">
                      {' '}
                      <bdi>{contact}</bdi>
                    </span>
                  )}
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </search>
  );
}
