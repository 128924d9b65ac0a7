// Document templates: the account's templates the caller may see (List Templates applies the
// API's sharing and team rules), a new one from an uploaded PDF, and a template's page, whence its
// preparation page opens (a one-hour link from POST /templates/preparation_session/).
import { useEffect, useState } from 'preact/hooks';
import { navigate } from '../router';
import type { TScreenProps } from '../routes';
import { useWords } from '../words';
import { AskFirst } from './confirm-delete';
import { Failure, useFailure } from './failure';
import { manageApi, type TDocTemplate, type TListPage } from './manage-api';
import { Pager } from './pager';
import { TemplatesNav } from './templates-nav';

export function DocTemplateList(props: TScreenProps) {
  const { t } = useWords();
  const api = manageApi(props.api);
  const { failure, setFailure, run } = useFailure(props.onSessionEnded);
  const [page, setPage] = useState(1);
  const [list, setList] = useState<TListPage<TDocTemplate> | undefined>(undefined);
  const [name, setName] = useState('');
  const [file, setFile] = useState<File | undefined>(undefined);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let current = true;
    void run(() => api.templates.list(page)).then((l) => current && l && setList(l));
    return () => {
      current = false;
    };
  }, [page]);

  async function upload(e: Event) {
    e.preventDefault();
    if (!file) return setFailure('templates.chooseFile');
    setBusy(true);
    const made = await run(() => api.templates.create(name.trim() || file.name.replace(/\.pdf$/i, ''), file));
    setBusy(false);
    if (made) navigate(`/console/templates/${made.id}`);
  }

  return (
    <>
      <h1>{t('templates.heading')}</h1>
      <TemplatesNav current="documents" />
      <form class="manage-form" onSubmit={upload} aria-labelledby="template-upload-heading">
        <h2 id="template-upload-heading">{t('templates.uploadHeading')}</h2>
        <div>
          <label for="template-file">{t('templates.file')}</label>
          <input
            id="template-file"
            type="file"
            accept="application/pdf,.pdf"
            required
            onChange={(e) => setFile((e.currentTarget as HTMLInputElement).files?.[0])}
          />
        </div>
        <div>
          <label for="template-name">{t('templates.name')}</label>
          <input
            id="template-name"
            maxLength={255}
            aria-describedby="template-name-hint"
            value={name}
            onInput={(e) => setName((e.currentTarget as HTMLInputElement).value)}
          />
          <p id="template-name-hint" class="hint">
            {t('templates.nameHint')}
          </p>
        </div>
        <button type="submit" disabled={busy}>
          {busy ? t('templates.uploading') : t('templates.upload')}
        </button>
      </form>
      <Failure failure={failure} />
      <h2>{t('templates.listHeading')}</h2>
      {list === undefined ? (
        !failure && <p role="status">{t('manage.loading')}</p>
      ) : list.items.length === 0 ? (
        <p role="status">{t('templates.empty')}</p>
      ) : (
        <ul class="cards" aria-label={t('templates.listHeading')}>
          {list.items.map((d) => (
            <li key={d.id}>
              <a href={`/console/templates/${d.id}`}>
                <bdi>{d.name || t('templates.untitled')}</bdi>
              </a>
              <span class="detail">
                {t('templates.summary', {
                  pages: d.page_count,
                  roles: d.roles.length,
                  fields: d.fields.length,
                })}
              </span>
            </li>
          ))}
        </ul>
      )}
      <Pager page={page} pages={list?.pagination.pages ?? 1} label={t('templates.paging')} onPage={setPage} />
    </>
  );
}

export function DocTemplatePage(props: TScreenProps) {
  const { t, lang } = useWords();
  const api = manageApi(props.api);
  const id = props.params[0]!;
  const { failure, run } = useFailure(props.onSessionEnded);
  const [template, setTemplate] = useState<TDocTemplate | undefined>(undefined);
  const [name, setName] = useState('');
  const [prep, setPrep] = useState<{ url: string; expires: string } | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);

  useEffect(() => {
    void run(() => api.templates.get(id)).then((d) => {
      if (!d) return;
      setTemplate(d);
      setName(d.name);
    });
  }, [id]);

  const act = async <T,>(call: () => Promise<T>) => {
    setBusy(true);
    setSaved(false);
    const out = await run(call);
    setBusy(false);
    return out;
  };

  async function rename(e: Event) {
    e.preventDefault();
    const d = await act(() => api.templates.rename(id, name.trim()));
    if (d) {
      setTemplate(d);
      setSaved(true);
    }
  }

  async function remove() {
    // Refused (a 403, say): the question closes, the reason shows above the button.
    if (await act(() => api.templates.remove(id).then(() => true))) navigate('/console/templates');
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
  const dates = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' });
  const kept = saved && name.trim() === template.name;
  return (
    <>
      <TemplatesNav />
      <h1>
        <bdi>{template.name || t('templates.untitled')}</bdi>
      </h1>
      <dl class="facts">
        <dt>{t('templates.pages')}</dt>
        <dd>{template.page_count}</dd>
        <dt>{t('templates.fields')}</dt>
        <dd>{template.fields.length}</dd>
        <dt>{t('templates.roles')}</dt>
        <dd>
          {template.roles.length === 0
            ? t('templates.noRoles')
            : template.roles.map((r) => (
                <span key={r.key} class="tag">
                  <bdi>{r.label || r.key}</bdi>
                </span>
              ))}
        </dd>
        <dt>{t('templates.shared')}</dt>
        <dd>{template.is_shared ? t('manage.yes') : t('manage.no')}</dd>
        <dt>{t('templates.updated')}</dt>
        <dd>{dates.format(new Date(template.updated))}</dd>
        <dt>{t('templates.document')}</dt>
        <dd>
          <a href={template.file_url} target="_blank" rel="noopener noreferrer">
            {t('templates.download')}
          </a>
        </dd>
      </dl>

      <section aria-labelledby="prep-heading">
        <h2 id="prep-heading">{t('templates.prepHeading')}</h2>
        <p>{t('templates.prepText')}</p>
        {prep ? (
          <>
            <p>
              <a class="button" href={prep.url} target="_blank" rel="noopener">
                {t('templates.openPrep')}
              </a>
            </p>
            <p class="hint">{t('templates.prepExpires', { time: dates.format(new Date(prep.expires)) })}</p>
          </>
        ) : (
          <button
            type="button"
            disabled={busy}
            onClick={async () => setPrep(await act(() => api.templates.preparationLink(id)))}
          >
            {t('templates.makePrepLink')}
          </button>
        )}
      </section>

      <form class="manage-form" onSubmit={rename} aria-labelledby="rename-heading">
        <h2 id="rename-heading">{t('templates.renameHeading')}</h2>
        <div>
          <label for="template-rename">{t('templates.name')}</label>
          <input
            id="template-rename"
            required
            maxLength={255}
            value={name}
            onInput={(e) => setName((e.currentTarget as HTMLInputElement).value)}
          />
        </div>
        <button type="submit" disabled={busy}>
          {t('manage.save')}
        </button>
        {kept && (
          <p role="status" class="notice">
            {t('manage.saved')}
          </p>
        )}
      </form>
      <Failure failure={failure} />
      <AskFirst
        label={t('templates.delete')}
        question={t('templates.confirmDelete', { name: template.name })}
        busy={busy}
        onConfirm={remove}
      />
    </>
  );
}
