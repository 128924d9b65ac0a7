// The bundle list: the account's bundles as List Bundles answers them, searched, filtered by
// status, sorted and paged by the API's own parameters. While it is open it asks again every
// few seconds, so statuses change on screen as signers sign.
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, type TBundleRow, type TConsoleApi } from '../api';
import { BUNDLE_STATUSES, FIRST_QUERY, ORDERINGS, type TBundleQuery, type TOrdering } from '../bundle-query';
import type { TPagination } from '../pagination';
import { useWords } from '../words';

/** A bundle's own page. */
const pageOf = (id: string) => `/console/bundles/${encodeURIComponent(id)}`;

/** How often the open list asks again. */
export const REFRESH_MS = 10_000;
const SEARCH_PAUSE_MS = 300;

export function BundleList(props: { api: TConsoleApi; onSessionEnded: () => void; refreshMs?: number }) {
  const { t, lang } = useWords();
  const [query, setQuery] = useState<TBundleQuery>(FIRST_QUERY);
  const [searchText, setSearchText] = useState('');
  const [rows, setRows] = useState<TBundleRow[] | undefined>(undefined);
  const [pagination, setPagination] = useState<TPagination | undefined>(undefined);
  const [failed, setFailed] = useState(false);
  const asked = useRef(0);

  // Loads the page the query names now, and again every REFRESH_MS while it stays the same.
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ask = async () => {
      const mine = ++asked.current;
      try {
        const { bundles, pagination } = await props.api.listBundles(query);
        if (mine !== asked.current) return; // a newer query answered or is on its way
        setRows(bundles);
        setPagination(pagination);
        setFailed(false);
      } catch (err) {
        if (err instanceof ApiError && err.status === 401) return props.onSessionEnded();
        if (mine === asked.current) setFailed(true);
      }
      timer = setTimeout(ask, props.refreshMs ?? REFRESH_MS);
    };
    void ask();
    return () => {
      asked.current++;
      clearTimeout(timer);
    };
  }, [query]);

  // The search waits for a pause in typing, then starts from the first page.
  useEffect(() => {
    if (searchText === query.search) return;
    const timer = setTimeout(() => setQuery((q) => ({ ...q, search: searchText, page: 1 })), SEARCH_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [searchText]);

  const dates = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' });
  const when = (iso: string | null) => (iso ? dates.format(new Date(iso)) : '—');
  const pages = pagination?.pages ?? 1;

  return (
    <>
      <h1>{t('bundles.heading')}</h1>
      <search class="filters">
        <div>
          <label for="bundle-search">{t('bundles.search')}</label>
          <input
            id="bundle-search"
            type="search"
            value={searchText}
            maxLength={200}
            onInput={(e) => setSearchText((e.currentTarget as HTMLInputElement).value)}
          />
        </div>
        <div>
          <label for="bundle-status">{t('bundles.status')}</label>
          <select
            id="bundle-status"
            value={query.status}
            onChange={(e) =>
              setQuery({ ...query, status: (e.currentTarget as HTMLSelectElement).value, page: 1 })
            }
          >
            <option value="">{t('bundles.allStatuses')}</option>
            {BUNDLE_STATUSES.map((s) => (
              <option key={s} value={s}>
                {t(`status.${s}`)}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label for="bundle-order">{t('bundles.sort')}</label>
          <select
            id="bundle-order"
            value={query.ordering}
            onChange={(e) =>
              setQuery({
                ...query,
                ordering: (e.currentTarget as HTMLSelectElement).value as TOrdering,
                page: 1,
              })
            }
          >
            {ORDERINGS.map((o) => (
              <option key={o} value={o}>
                {t(`bundles.order.${o.replace(/^-/, 'desc_')}`)}
              </option>
            ))}
          </select>
        </div>
      </search>

      {failed && (
        <p class="error" role="alert">
          {t('bundles.failed')}
        </p>
      )}
      {rows === undefined ? (
        !failed && <p role="status">{t('bundles.loading')}</p>
      ) : rows.length === 0 ? (
        <p role="status">{t('bundles.empty')}</p>
      ) : (
        <>
          {/* On a phone the bundles are cards (console.css shows one form or the other, never both). */}
          <ul
            class="bundle-cards"
            aria-label={t('bundles.caption', { total: pagination?.total ?? rows.length })}
          >
            {rows.map((b) => (
              <li key={b.id} class="card">
                <a href={pageOf(b.id)} class="card-title">
                  <bdi>{b.label || t('bundles.untitled')}</bdi>
                </a>
                <span class={`status status-${b.status}`}>{t(`status.${b.status}`)}</span>
                <ul class="signers">
                  {b.packets.map((p) => (
                    <li key={p.id}>
                      <bdi>{p.name || p.email}</bdi>
                    </li>
                  ))}
                </ul>
                <dl class="card-dates">
                  <div>
                    <dt>{t('bundles.columns.created')}</dt>
                    <dd>{when(b.created)}</dd>
                  </div>
                  <div>
                    <dt>{t('bundles.columns.sent')}</dt>
                    <dd>{when(b.sent)}</dd>
                  </div>
                </dl>
              </li>
            ))}
          </ul>
          {/* A table wider than the window scrolls in its own region, which the keyboard must reach to scroll. */}
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region takes focus (WCAG 2.1.1). */}
          <section class="table-wrap" aria-labelledby="bundles-caption" tabIndex={0}>
            <table>
              <caption id="bundles-caption">
                {t('bundles.caption', { total: pagination?.total ?? rows.length })}
              </caption>
              <thead>
                <tr>
                  <th scope="col">{t('bundles.columns.label')}</th>
                  <th scope="col">{t('bundles.columns.status')}</th>
                  <th scope="col">{t('bundles.columns.signers')}</th>
                  <th scope="col">{t('bundles.columns.created')}</th>
                  <th scope="col">{t('bundles.columns.sent')}</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((b) => (
                  <tr key={b.id}>
                    <th scope="row">
                      <a href={pageOf(b.id)}>
                        <bdi>{b.label || t('bundles.untitled')}</bdi>
                      </a>
                      <span class="id">{b.id}</span>
                    </th>
                    <td>
                      <span class={`status status-${b.status}`}>{t(`status.${b.status}`)}</span>
                    </td>
                    <td>
                      <ul class="signers">
                        {b.packets.map((p) => (
                          <li key={p.id}>
                            <bdi>{p.name || p.email}</bdi>
                          </li>
                        ))}
                      </ul>
                    </td>
                    <td>{when(b.created)}</td>
                    <td>{when(b.sent)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        </>
      )}

      {pages > 1 && (
        <nav class="pager" aria-label={t('bundles.paging')}>
          <button
            type="button"
            class="secondary"
            disabled={query.page <= 1}
            onClick={() => setQuery({ ...query, page: query.page - 1 })}
          >
            {t('bundles.previous')}
          </button>
          <span aria-live="polite">{t('bundles.pageOf', { page: query.page, pages })}</span>
          <button
            type="button"
            class="secondary"
            disabled={query.page >= pages}
            onClick={() => setQuery({ ...query, page: query.page + 1 })}
          >
            {t('bundles.next')}
          </button>
        </nav>
      )}
    </>
  );
}
