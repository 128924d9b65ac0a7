// Webhooks: where the service posts the account's events. The list, the account's signing secret
// (read when asked for, regenerated after a second question), and one form to add or edit a
// webhook: its URL, the event types it receives, on or off. A webhook's page lists its
// deliveries, the receiver's answer to each, and sends a delivery's event again.
import { useEffect, useState } from 'preact/hooks';
import { navigate } from '../router';
import type { TScreenProps } from '../routes';
import { useWords } from '../words';
import { AskFirst } from './confirm-delete';
import { Failure, useFailure } from './failure';
import { manageApi, type TListPage, type TWebhook, WEBHOOK_EVENT_TYPES } from './manage-api';
import { Pager } from './pager';
import { WebhookDeliveries } from './webhook-deliveries';

export function WebhookList(props: TScreenProps) {
  const { t } = useWords();
  const api = manageApi(props.api);
  const { failure, run } = useFailure(props.onSessionEnded);
  const [page, setPage] = useState(1);
  const [list, setList] = useState<TListPage<TWebhook> | undefined>(undefined);

  useEffect(() => {
    let current = true;
    void run(() => api.webhooks.list(page)).then((l) => current && l && setList(l));
    return () => {
      current = false;
    };
  }, [page]);

  return (
    <>
      <h1>{t('webhooks.heading')}</h1>
      <p>
        <a class="button" href="/console/webhooks/new">
          {t('webhooks.add')}
        </a>
      </p>
      <Failure failure={failure} />
      {list === undefined ? (
        !failure && <p role="status">{t('manage.loading')}</p>
      ) : list.items.length === 0 ? (
        <p role="status">{t('webhooks.empty')}</p>
      ) : (
        <ul class="cards" aria-label={t('webhooks.heading')}>
          {list.items.map((w) => (
            <li key={w.id}>
              <a href={`/console/webhooks/${w.id}`}>
                <bdi class="link">{w.url}</bdi>
              </a>
              <span class="detail">
                {w.enabled ? t('webhooks.on') : t('webhooks.off')} ·{' '}
                {t('webhooks.eventCount', { number: w.event_types.length })}
              </span>
            </li>
          ))}
        </ul>
      )}
      <Pager page={page} pages={list?.pagination.pages ?? 1} label={t('webhooks.paging')} onPage={setPage} />
      <WebhookSecret {...props} />
    </>
  );
}

/** The account's one signing secret: every webhook's calls are signed with it. */
function WebhookSecret(props: TScreenProps) {
  const { t } = useWords();
  const api = manageApi(props.api);
  const { failure, run } = useFailure(props.onSessionEnded);
  const [secret, setSecret] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);

  const read = async (call: () => Promise<{ secret: string }>) => {
    setBusy(true);
    const s = await run(call);
    setBusy(false);
    if (s) setSecret(s.secret);
  };

  return (
    <section aria-labelledby="secret-heading">
      <h2 id="secret-heading">{t('webhooks.secretHeading')}</h2>
      <p>{t('webhooks.secretText')}</p>
      {secret ? (
        <p>
          <code class="link">{secret}</code>
        </p>
      ) : (
        <button type="button" class="secondary" disabled={busy} onClick={() => read(api.webhooks.secret)}>
          {t('webhooks.showSecret')}
        </button>
      )}{' '}
      <AskFirst
        label={t('webhooks.regenerate')}
        question={t('webhooks.regenerateQuestion')}
        yes={t('webhooks.regenerate')}
        look="secondary"
        busy={busy}
        onConfirm={() => read(api.webhooks.regenerateSecret)}
      />
      <Failure failure={failure} />
    </section>
  );
}

/** Add (`params[0]` is `new`) or edit a webhook; an existing one's deliveries follow. */
export function WebhookForm(props: TScreenProps) {
  const { t } = useWords();
  const api = manageApi(props.api);
  const id = props.params[0] === 'new' ? undefined : props.params[0];
  const { failure, setFailure, run } = useFailure(props.onSessionEnded);
  const [loaded, setLoaded] = useState(!id);
  const [url, setUrl] = useState('');
  const [enabled, setEnabled] = useState(true);
  const [types, setTypes] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);

  useEffect(() => {
    if (!id) return;
    void run(() => api.webhooks.get(id)).then((w) => {
      if (!w) return;
      setUrl(w.url);
      setEnabled(w.enabled);
      setTypes(w.event_types);
      setLoaded(true);
    });
  }, [id]);

  async function save(e: Event) {
    e.preventDefault();
    if (types.length === 0) return setFailure('webhooks.chooseEvents');
    setBusy(true);
    setSaved(false);
    const body = { url: url.trim(), enabled, event_types: types };
    const done = await run(() => (id ? api.webhooks.update(id, body) : api.webhooks.create(body)));
    setBusy(false);
    if (!done) return;
    if (id) setSaved(true);
    else navigate(`/console/webhooks/${done.id}`);
  }

  async function remove() {
    if (!id) return;
    setBusy(true);
    const done = await run(() => api.webhooks.remove(id).then(() => true));
    setBusy(false);
    if (done) navigate('/console/webhooks');
  }

  if (!loaded) return failure ? <Failure failure={failure} /> : <p role="status">{t('manage.loading')}</p>;
  return (
    <>
      <p>
        <a href="/console/webhooks">{t('webhooks.back')}</a>
      </p>
      <h1>{id ? t('webhooks.editHeading') : t('webhooks.addHeading')}</h1>
      <form class="manage-form" onSubmit={save}>
        <div>
          <label for="webhook-url">{t('webhooks.url')}</label>
          <input
            id="webhook-url"
            type="url"
            required
            maxLength={2048}
            class="wide"
            value={url}
            onInput={(e) => setUrl((e.currentTarget as HTMLInputElement).value)}
          />
        </div>
        <label class="check">
          <input
            type="checkbox"
            checked={enabled}
            onChange={(e) => setEnabled((e.currentTarget as HTMLInputElement).checked)}
          />{' '}
          {t('webhooks.enabled')}
        </label>
        <fieldset>
          <legend>{t('webhooks.events')}</legend>
          <div class="checks">
            {WEBHOOK_EVENT_TYPES.map((type) => (
              <label key={type} class="check">
                <input
                  type="checkbox"
                  checked={types.includes(type)}
                  onChange={(e) =>
                    setTypes((now) =>
                      (e.currentTarget as HTMLInputElement).checked
                        ? [...now, type]
                        : now.filter((x) => x !== type),
                    )
                  }
                />{' '}
                <code>{type}</code>
              </label>
            ))}
          </div>
        </fieldset>
        <Failure failure={failure} />
        <div class="actions">
          <button type="submit" disabled={busy}>
            {t('manage.save')}
          </button>
          {id && (
            <AskFirst
              label={t('manage.delete')}
              question={t('webhooks.confirmDelete', { url })}
              busy={busy}
              onConfirm={remove}
            />
          )}
        </div>
        {saved && (
          <p role="status" class="notice">
            {t('manage.saved')}
          </p>
        )}
      </form>
      {id && <WebhookDeliveries {...props} webhookId={id} />}
    </>
  );
}
