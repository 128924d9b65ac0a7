// Envelope templates: document templates put together, sent as one bundle. The list shows each
// one's portal link (its "smart link", a public page where anyone starts a bundle from it), a new
// one is made from chosen document templates with their roles as its signers, and its page turns
// the portal link on and off and copies it.
import { useEffect, useState } from 'preact/hooks';
import { navigate } from '../router';
import type { TScreenProps } from '../routes';
import { useWords } from '../words';
import { AskFirst } from './confirm-delete';
import { Failure, useFailure } from './failure';
import {
  MAX_PER_PAGE,
  manageApi,
  type TDocTemplate,
  type TEnvelopeTemplate,
  type TListPage,
} from './manage-api';
import { Pager } from './pager';
import { TemplatesNav } from './templates-nav';

/** The roles of the chosen document templates, each once, as the envelope's signers. */
export function signersOf(chosen: TDocTemplate[]): { key: string; label: string }[] {
  const seen = new Map<string, string>();
  for (const d of chosen) for (const r of d.roles) if (!seen.has(r.key)) seen.set(r.key, r.label || r.key);
  return [...seen].map(([key, label]) => ({ key, label }));
}

export function EnvelopeTemplateList(props: TScreenProps) {
  const { t } = useWords();
  const api = manageApi(props.api);
  const { failure, setFailure, run } = useFailure(props.onSessionEnded);
  const [page, setPage] = useState(1);
  const [list, setList] = useState<TListPage<TEnvelopeTemplate> | undefined>(undefined);
  const [docs, setDocs] = useState<TDocTemplate[]>([]);
  const [name, setName] = useState('');
  const [chosen, setChosen] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let current = true;
    void run(() => api.envelopes.list(page)).then((l) => current && l && setList(l));
    return () => {
      current = false;
    };
  }, [page]);
  // The document templates to choose from: the first hundred the caller may use.
  useEffect(() => {
    void run(() => api.templates.list(1, MAX_PER_PAGE)).then((l) => l && setDocs(l.items));
  }, []);

  async function create(e: Event) {
    e.preventDefault();
    const picked = chosen.flatMap((id) => docs.filter((d) => d.id === id));
    if (picked.length === 0) return setFailure('envelopes.chooseDocuments');
    const signers = signersOf(picked);
    if (signers.length === 0) return setFailure('envelopes.needsRoles');
    setBusy(true);
    const made = await run(() =>
      api.envelopes.create({
        name: name.trim(),
        documents: picked.map((d, i) => ({ template_id: d.id, order: i })),
        signers: signers.map((s, i) => ({ ...s, order: i })),
      }),
    );
    setBusy(false);
    if (made) navigate(`/console/envelope-templates/${made.id}`);
  }

  // The list itself refused: the operator has turned envelope templates off for the account.
  const off = failure === 'manage.errors.forbidden' && list === undefined;
  return (
    <>
      <h1>{t('templates.heading')}</h1>
      <TemplatesNav current="envelopes" />
      <Failure failure={off ? undefined : failure} />
      {off && (
        <p class="notice" role="alert">
          {t('envelopes.notEnabled')}
        </p>
      )}
      <h2>{t('envelopes.listHeading')}</h2>
      {list === undefined ? (
        !failure && <p role="status">{t('manage.loading')}</p>
      ) : list.items.length === 0 ? (
        <p role="status">{t('envelopes.empty')}</p>
      ) : (
        <ul class="cards" aria-label={t('envelopes.listHeading')}>
          {list.items.map((e) => (
            <li key={e.id}>
              <a href={`/console/envelope-templates/${e.id}`}>
                <bdi>{e.name}</bdi>
              </a>
              <span class="detail">
                {t('envelopes.summary', { documents: e.documents.length, signers: e.signers.length })}
              </span>
              {e.smart_link_url && (
                <span class="detail">
                  {t('envelopes.portalLink')}: <code class="link">{e.smart_link_url}</code>
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
      <Pager page={page} pages={list?.pagination.pages ?? 1} label={t('envelopes.paging')} onPage={setPage} />

      {!off && (
        <form class="manage-form" onSubmit={create} aria-labelledby="envelope-new-heading">
          <h2 id="envelope-new-heading">{t('envelopes.newHeading')}</h2>
          <div>
            <label for="envelope-name">{t('envelopes.name')}</label>
            <input
              id="envelope-name"
              required
              maxLength={255}
              value={name}
              onInput={(e) => setName((e.currentTarget as HTMLInputElement).value)}
            />
          </div>
          <fieldset>
            <legend>{t('envelopes.documents')}</legend>
            {docs.length === 0 && <p>{t('envelopes.noDocuments')}</p>}
            {docs.map((d) => (
              <label key={d.id} class="check">
                <input
                  type="checkbox"
                  checked={chosen.includes(d.id)}
                  onChange={(e) =>
                    setChosen((now) =>
                      (e.currentTarget as HTMLInputElement).checked
                        ? [...now, d.id]
                        : now.filter((c) => c !== d.id),
                    )
                  }
                />{' '}
                <bdi>{d.name || t('templates.untitled')}</bdi>
              </label>
            ))}
          </fieldset>
          <button type="submit" disabled={busy}>
            {t('envelopes.create')}
          </button>
        </form>
      )}
    </>
  );
}

export function EnvelopeTemplatePage(props: TScreenProps) {
  const { t } = useWords();
  const api = manageApi(props.api);
  const id = props.params[0]!;
  const { failure, run } = useFailure(props.onSessionEnded);
  const [template, setTemplate] = useState<TEnvelopeTemplate | undefined>(undefined);
  const [portal, setPortal] = useState({ is_portal: false, allow_direct_signing: false, enabled: true });
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<string | undefined>(undefined);
  const [names, setNames] = useState<Record<string, string>>({});

  const show = (e: TEnvelopeTemplate) => {
    setTemplate(e);
    setPortal({ is_portal: e.is_portal, allow_direct_signing: e.allow_direct_signing, enabled: e.enabled });
  };
  useEffect(() => {
    void run(() => api.envelopes.get(id)).then((e) => e && show(e));
  }, [id]);
  // A document without a name of its own shows its document template's; one that cannot be read
  // (deleted, or not the caller's to see) shows its key.
  useEffect(() => {
    if (!template) return;
    const named = template.documents.map((d) =>
      api.templates.get(d.template_id).then(
        (doc) => [d.template_id, doc.name] as const,
        () => [d.template_id, ''] as const,
      ),
    );
    void Promise.all(named).then((pairs) => setNames(Object.fromEntries(pairs)));
  }, [template?.id]);

  async function savePortal(e: Event) {
    e.preventDefault();
    setBusy(true);
    setNote(undefined);
    const saved = await run(() => api.envelopes.update(id, portal));
    setBusy(false);
    if (saved) {
      show(saved);
      setNote('manage.saved');
    }
  }

  async function copy(url: string) {
    try {
      await navigator.clipboard.writeText(url);
      setNote('envelopes.copied');
    } catch {
      setNote('envelopes.copyFailed');
    }
  }

  async function remove() {
    setBusy(true);
    const done = await run(() => api.envelopes.remove(id).then(() => true));
    setBusy(false);
    if (done) navigate('/console/envelope-templates');
  }

  if (!template)
    return failure ? (
      <>
        <TemplatesNav />
        <Failure failure={failure} />
      </>
    ) : (
      <p role="status">{t('manage.loading')}</p>
    );
  const box = (key: keyof typeof portal, word: string) => (
    <label class="check">
      <input
        type="checkbox"
        checked={portal[key]}
        onChange={(e) => setPortal({ ...portal, [key]: (e.currentTarget as HTMLInputElement).checked })}
      />{' '}
      {t(word)}
    </label>
  );
  return (
    <>
      <TemplatesNav />
      <h1>
        <bdi>{template.name}</bdi>
      </h1>
      {template.description && <p>{template.description}</p>}
      <h2>{t('envelopes.documents')}</h2>
      <ul>
        {template.documents.map((d) => (
          <li key={d.key}>
            <a href={`/console/templates/${d.template_id}`}>
              <bdi>{d.name || names[d.template_id] || d.key}</bdi>
            </a>
          </li>
        ))}
      </ul>
      <h2>{t('envelopes.signers')}</h2>
      <ul>
        {template.signers.map((s) => (
          <li key={s.key}>
            <bdi>{s.label || s.key}</bdi>
          </li>
        ))}
      </ul>

      <form class="manage-form" onSubmit={savePortal} aria-labelledby="portal-heading">
        <h2 id="portal-heading">{t('envelopes.portalLink')}</h2>
        <p>{t('envelopes.portalText')}</p>
        {box('is_portal', 'envelopes.isPortal')}
        {box('allow_direct_signing', 'envelopes.directSigning')}
        {box('enabled', 'envelopes.enabled')}
        <button type="submit" disabled={busy}>
          {t('manage.save')}
        </button>
      </form>
      {template.smart_link_url ? (
        <p class="link-row">
          <code class="link">{template.smart_link_url}</code>{' '}
          <button type="button" class="secondary" onClick={() => copy(template.smart_link_url)}>
            {t('envelopes.copy')}
          </button>
        </p>
      ) : (
        <p class="hint">{t('envelopes.noPortalLink')}</p>
      )}
      {note && (
        <p role="status" class="notice">
          {t(note)}
        </p>
      )}
      <Failure failure={failure} />
      <AskFirst
        label={t('envelopes.delete')}
        question={t('envelopes.confirmDelete', { name: template.name })}
        busy={busy}
        onConfirm={remove}
      />
    </>
  );
}
