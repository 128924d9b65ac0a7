// Persons: the account's address book that Send searches. A list searched as List Persons
// searches (name, email, phone), and one form to add or edit a person: their name, emails and
// phones (a channel each), and metadata as a JSON object.
import { useEffect, useState } from 'preact/hooks';
import { navigate } from '../router';
import type { TScreenProps } from '../routes';
import { useWords } from '../words';
import { AskFirst } from './confirm-delete';
import { Failure, useFailure } from './failure';
import { manageApi, type TListPage, type TPerson, type TPersonChannel } from './manage-api';
import { Pager } from './pager';

const SEARCH_PAUSE_MS = 300;

export function PersonList(props: TScreenProps) {
  const { t } = useWords();
  const api = manageApi(props.api);
  const { failure, run } = useFailure(props.onSessionEnded);
  const [search, setSearch] = useState('');
  const [query, setQuery] = useState({ search: '', page: 1 });
  const [list, setList] = useState<TListPage<TPerson> | undefined>(undefined);

  useEffect(() => {
    let current = true;
    void run(() => api.persons.list(query.search, query.page)).then((l) => current && l && setList(l));
    return () => {
      current = false;
    };
  }, [query]);

  useEffect(() => {
    if (search === query.search) return;
    const timer = setTimeout(() => setQuery({ search, page: 1 }), SEARCH_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [search]);

  return (
    <>
      <h1>{t('persons.heading')}</h1>
      <p>
        <a class="button" href="/console/persons/new">
          {t('persons.add')}
        </a>
      </p>
      <search class="filters">
        <div>
          <label for="person-search">{t('persons.search')}</label>
          <input
            id="person-search"
            type="search"
            value={search}
            maxLength={200}
            onInput={(e) => setSearch((e.currentTarget as HTMLInputElement).value)}
          />
        </div>
      </search>
      <Failure failure={failure} />
      {list === undefined ? (
        !failure && <p role="status">{t('manage.loading')}</p>
      ) : list.items.length === 0 ? (
        <p role="status">{t('persons.empty')}</p>
      ) : (
        <ul
          class="cards"
          aria-label={t('persons.caption', { total: list.pagination.total || list.items.length })}
        >
          {list.items.map((p) => (
            <li key={p.id}>
              <a href={`/console/persons/${p.id}`}>
                <bdi>{p.name}</bdi>
              </a>
              {p.channels.map((c) => (
                <span key={c.id} class="detail">
                  <bdi>{c.email || c.phone}</bdi>
                </span>
              ))}
            </li>
          ))}
        </ul>
      )}
      <Pager
        page={query.page}
        pages={list?.pagination.pages ?? 1}
        label={t('persons.paging')}
        onPage={(page) => setQuery({ ...query, page })}
      />
    </>
  );
}

const lines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');

/** The person's channels from the form's lines; a line already a channel keeps its id. */
function channelsOf(emails: string, phones: string, before: TPersonChannel[]): TPersonChannel[] {
  const kept = (kind: 'em' | 'mp', value: string) =>
    before.find((c) => c.kind === kind && (kind === 'em' ? c.email : c.phone) === value)?.id;
  return [
    ...lines(emails).map((email) => ({ id: kept('em', email), kind: 'em' as const, email, phone: '' })),
    ...lines(phones).map((phone) => ({ id: kept('mp', phone), kind: 'mp' as const, email: '', phone })),
  ].map(({ id, kind, email, phone }) => ({
    ...(id ? { id } : {}),
    kind,
    ...(kind === 'em' ? { email } : { phone }),
  })) as TPersonChannel[];
}

/** Add (`params[0]` is `new`) or edit a person. */
export function PersonForm(props: TScreenProps) {
  const { t } = useWords();
  const api = manageApi(props.api);
  const id = props.params[0] === 'new' ? undefined : props.params[0];
  const { failure, setFailure, run } = useFailure(props.onSessionEnded);
  const [person, setPerson] = useState<TPerson | undefined>(undefined);
  const [name, setName] = useState('');
  const [emails, setEmails] = useState('');
  const [phones, setPhones] = useState('');
  const [metadata, setMetadata] = useState('{}');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!id) return;
    void run(() => api.persons.get(id)).then((p) => {
      if (!p) return;
      setPerson(p);
      setName(p.name);
      setEmails(p.channels.flatMap((c) => (c.kind === 'em' ? [c.email] : [])).join('\n'));
      setPhones(p.channels.flatMap((c) => (c.kind === 'mp' ? [c.phone] : [])).join('\n'));
      setMetadata(JSON.stringify(p.metadata ?? {}, null, 2));
    });
  }, [id]);

  async function save(e: Event) {
    e.preventDefault();
    let meta: unknown;
    try {
      meta = JSON.parse(metadata.trim() || '{}');
    } catch {
      meta = undefined;
    }
    if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) {
      setFailure('persons.metadataInvalid');
      return;
    }
    const body = {
      name: name.trim(),
      metadata: meta as Record<string, unknown>,
      channels: channelsOf(emails, phones, person?.channels ?? []),
    };
    setBusy(true);
    const saved = await run(() => (id ? api.persons.replace(id, body) : api.persons.create(body)));
    setBusy(false);
    if (saved) navigate('/console/persons');
  }

  async function remove() {
    if (!id) return;
    setBusy(true);
    const done = await run(async () => {
      await api.persons.remove(id);
      return true;
    });
    setBusy(false);
    if (done) navigate('/console/persons');
  }

  if (id && !person)
    return failure ? <Failure failure={failure} /> : <p role="status">{t('manage.loading')}</p>;
  return (
    <>
      <p>
        <a href="/console/persons">{t('persons.back')}</a>
      </p>
      <h1>{id ? t('persons.editHeading') : t('persons.addHeading')}</h1>
      <form class="manage-form" onSubmit={save}>
        <div>
          <label for="person-name">{t('persons.name')}</label>
          <input
            id="person-name"
            required
            maxLength={255}
            autocomplete="off"
            value={name}
            onInput={(e) => setName((e.currentTarget as HTMLInputElement).value)}
          />
        </div>
        <div>
          <label for="person-emails">{t('persons.emails')}</label>
          <textarea
            id="person-emails"
            rows={3}
            aria-describedby="person-emails-hint"
            value={emails}
            onInput={(e) => setEmails((e.currentTarget as HTMLTextAreaElement).value)}
          />
          <p id="person-emails-hint" class="hint">
            {t('persons.onePerLine')}
          </p>
        </div>
        <div>
          <label for="person-phones">{t('persons.phones')}</label>
          <textarea
            id="person-phones"
            rows={2}
            aria-describedby="person-phones-hint"
            value={phones}
            onInput={(e) => setPhones((e.currentTarget as HTMLTextAreaElement).value)}
          />
          <p id="person-phones-hint" class="hint">
            {t('persons.phonesHint')}
          </p>
        </div>
        <div>
          <label for="person-metadata">{t('persons.metadata')}</label>
          <textarea
            id="person-metadata"
            rows={4}
            class="code"
            aria-describedby="person-metadata-hint"
            value={metadata}
            onInput={(e) => setMetadata((e.currentTarget as HTMLTextAreaElement).value)}
          />
          <p id="person-metadata-hint" class="hint">
            {t('persons.metadataHint')}
          </p>
        </div>
        <Failure failure={failure} />
        <div class="actions">
          <button type="submit" disabled={busy}>
            {t('manage.save')}
          </button>
          {id && (
            <AskFirst
              label={t('manage.delete')}
              question={t('persons.confirmDelete', { name: person?.name ?? '' })}
              busy={busy}
              onConfirm={remove}
            />
          )}
        </div>
      </form>
    </>
  );
}
