// A webhook's deliveries, newest first as the API lists them: when, which event, what the
// receiver answered. "Send again" asks the API to redeliver the delivery's event, which logs a
// new delivery; the list is read again after it.
import { useEffect, useState } from 'preact/hooks';
import type { TScreenProps } from '../routes';
import { useWords } from '../words';
import { Failure, useFailure } from './failure';
import { manageApi, type TListPage, type TWebhookDelivery } from './manage-api';
import { Pager } from './pager';

export function WebhookDeliveries(props: TScreenProps & { webhookId: string }) {
  const { t, lang } = useWords();
  const api = manageApi(props.api);
  const { failure, run } = useFailure(props.onSessionEnded);
  const [page, setPage] = useState(1);
  const [list, setList] = useState<TListPage<TWebhookDelivery> | undefined>(undefined);
  const [asked, setAsked] = useState(0);
  const [note, setNote] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let current = true;
    void run(() => api.webhooks.deliveries(props.webhookId, page)).then((l) => current && l && setList(l));
    return () => {
      current = false;
    };
  }, [page, asked]);

  async function redeliver(eventId: string) {
    setBusy(true);
    setNote(false);
    const done = await run(() => api.webhooks.redeliver(eventId).then(() => true));
    setBusy(false);
    if (done) {
      setNote(true);
      setAsked((n) => n + 1);
    }
  }

  const dates = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'medium' });
  return (
    <section aria-labelledby="deliveries-heading">
      <h2 id="deliveries-heading">{t('webhooks.deliveriesHeading')}</h2>
      <button type="button" class="secondary" onClick={() => setAsked((n) => n + 1)}>
        {t('webhooks.refresh')}
      </button>
      {note && (
        <p role="status" class="notice">
          {t('webhooks.redeliverAsked')}
        </p>
      )}
      <Failure failure={failure} />
      {list === undefined ? (
        !failure && <p role="status">{t('manage.loading')}</p>
      ) : list.items.length === 0 ? (
        <p>{t('webhooks.noDeliveries')}</p>
      ) : (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region takes focus (WCAG 2.1.1).
        <section class="table-wrap" aria-labelledby="deliveries-caption" tabIndex={0}>
          <table>
            <caption id="deliveries-caption">
              {t('webhooks.deliveriesCaption', { total: list.pagination.total || list.items.length })}
            </caption>
            <thead>
              <tr>
                <th scope="col">{t('webhooks.when')}</th>
                <th scope="col">{t('webhooks.event')}</th>
                <th scope="col">{t('webhooks.answer')}</th>
                <th scope="col">
                  <span class="visually-hidden">{t('webhooks.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.items.map((d) => {
                // The receiver's answer: a 2xx is a delivery, anything else (0: none) a failure.
                const ok = d.status >= 200 && d.status < 300;
                return (
                  <tr key={d.id}>
                    <td>{dates.format(new Date(d.timestamp))}</td>
                    <td>
                      <code>{d.event_type}</code>
                    </td>
                    <td>
                      <span class={`status ${ok ? 'status-co' : 'status-fa'}`}>
                        {ok ? t('webhooks.delivered') : t('webhooks.failed')}
                      </span>{' '}
                      {d.status > 0 ? t('webhooks.httpStatus', { status: d.status }) : t('webhooks.noAnswer')}
                    </td>
                    <td>
                      <button
                        type="button"
                        class="secondary"
                        disabled={busy}
                        aria-label={t('webhooks.redeliverOne', {
                          event: d.event_type,
                          time: dates.format(new Date(d.timestamp)),
                        })}
                        onClick={() => redeliver(d.webhook_event)}
                      >
                        {t('webhooks.redeliver')}
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </section>
      )}
      <Pager
        page={page}
        pages={list?.pagination.pages ?? 1}
        label={t('webhooks.deliveriesPaging')}
        onPage={setPage}
      />
    </section>
  );
}
