// The account's security log, for its admins: sign-ins, sign-outs and admins' changes, newest
// first, a page at a time, with who did each (by name when they are still a user).
import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../api';
import type { TPagination } from '../pagination';
import { peopleApi, type TSecurityEventRow } from '../people-api';
import type { TScreenProps } from '../routes';
import { useWords } from '../words';

export function SecurityLog(props: TScreenProps) {
  const { t, lang } = useWords();
  const people = peopleApi(props.api);
  const [page, setPage] = useState(1);
  const [events, setEvents] = useState<TSecurityEventRow[] | undefined>(undefined);
  const [pagination, setPagination] = useState<TPagination | undefined>(undefined);
  const [names, setNames] = useState<Map<string, string>>(new Map());
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let current = true;
    Promise.all([people.securityLog(page), people.users()]).then(
      ([log, users]) => {
        if (!current) return;
        setEvents(log.events);
        setPagination(log.pagination);
        setNames(new Map(users.map((u) => [u.id, u.name || u.email])));
        setFailed(false);
      },
      (err) => {
        if (err instanceof ApiError && err.status === 401) return props.onSessionEnded();
        if (current) setFailed(true);
      },
    );
    return () => {
      current = false;
    };
  }, [page]);

  const dates = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'medium' });
  const who = (id: string | undefined) => (id ? (names.get(id) ?? t('securityLog.someoneElse')) : '—');
  const pages = pagination?.pages ?? 1;

  return (
    <>
      <h1>{t('securityLog.heading')}</h1>
      {failed && (
        <p class="error" role="alert">
          {t('securityLog.failed')}
        </p>
      )}
      {events === undefined ? (
        !failed && <p role="status">{t('loading')}</p>
      ) : events.length === 0 ? (
        <p role="status">{t('securityLog.empty')}</p>
      ) : (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region takes focus (WCAG 2.1.1).
        <section class="log-wrap" aria-labelledby="log-caption" tabIndex={0}>
          <table>
            <caption id="log-caption">{t('securityLog.caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('securityLog.columns.at')}</th>
                <th scope="col">{t('securityLog.columns.event')}</th>
                <th scope="col">{t('securityLog.columns.who')}</th>
                <th scope="col">{t('securityLog.columns.subject')}</th>
                <th scope="col">{t('securityLog.columns.from')}</th>
              </tr>
            </thead>
            <tbody>
              {events.map((e) => (
                <tr key={e.id}>
                  <th scope="row">{dates.format(new Date(e.at))}</th>
                  <td>{t(`securityLog.kinds.${e.kind}`, { defaultValue: e.kind })}</td>
                  <td>
                    <bdi>{who(e.user_id)}</bdi>
                  </td>
                  <td>
                    <bdi>{e.subject_id ? (names.get(e.subject_id) ?? e.subject_id) : '—'}</bdi>
                  </td>
                  <td>
                    <bdi>{e.ip || '—'}</bdi>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
      {pages > 1 && (
        <nav class="pager" aria-label={t('securityLog.paging')}>
          <button type="button" class="secondary" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            {t('securityLog.previous')}
          </button>
          <span aria-live="polite">{t('securityLog.pageOf', { page, pages })}</span>
          <button type="button" class="secondary" disabled={page >= pages} onClick={() => setPage(page + 1)}>
            {t('securityLog.next')}
          </button>
        </nav>
      )}
    </>
  );
}
