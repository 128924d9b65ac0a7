// The Send screen: the documents (uploaded, or a document or envelope template), the signers
// (typed, or found among the account's Persons), their order and how they prove who they are, and
// the message; then the draft is created and its editor opened (`/console/send/<id>`). A refused
// create keeps everything entered and shows the API's errors beside the inputs they name.
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api';
import { LANGUAGES, nativeName } from '../i18n';
import { navigate } from '../router';
import type { TScreenProps } from '../routes';
import { CreateRefused, sendApi, type TDocTemplateRow, type TEnvelopeTemplateRow } from '../send-api';
import {
  ACCEPT,
  draftRequest,
  fileProblem,
  isPdf,
  moved,
  placeErrors,
  type TDraftForm,
  type TFieldErrors,
  type TSigner,
  type TSource,
  UPLOAD_MEGABYTES,
} from '../send-draft';
import { useWords } from '../words';
import { PersonSearch } from './send-persons';
import { SignerFields } from './send-signer';
import { SendValues } from './send-values';

let nextUid = 1;
export const blankSigner = (over: Partial<TSigner> = {}): TSigner => ({
  uid: nextUid++,
  name: '',
  email: '',
  phone: '',
  language: '',
  authSms: false,
  authSelfie: false,
  authId: false,
  ...over,
});

const FIRST_FORM = (): TDraftForm => ({
  source: 'upload',
  uploads: [],
  templateId: '',
  envelopeId: '',
  signers: [blankSigner()],
  inOrder: false,
  label: '',
  emailSubject: '',
  emailMessage: '',
});

/** The signers a template's roles call for: those already entered keep their place. */
function signersFor(roles: { key: string; label: string }[], now: TSigner[]): TSigner[] {
  return roles.map((role, i) => ({ ...(now[i] ?? blankSigner()), role }));
}

const sizeText = (bytes: number, lang: string) =>
  new Intl.NumberFormat(lang, { style: 'unit', unit: 'kilobyte', maximumFractionDigits: 0 }).format(
    Math.max(1, Math.round(bytes / 1024)),
  );

export function Send(props: TScreenProps) {
  const { t, lang } = useWords();
  const calls = sendApi(props.api, props.session.csrf_token);
  const [form, setForm] = useState<TDraftForm>(FIRST_FORM);
  const [docTemplates, setDocTemplates] = useState<TDocTemplateRow[] | undefined>(undefined);
  const [envelopes, setEnvelopes] = useState<TEnvelopeTemplateRow[] | undefined>(undefined);
  const [fileNotes, setFileNotes] = useState<string[]>([]);
  const [errors, setErrors] = useState<{ beside: TFieldErrors; rest: string[] }>({ beside: {}, rest: [] });
  const [busy, setBusy] = useState(false);
  const [over, setOver] = useState(false);
  const summary = useRef<HTMLDivElement>(null);
  // A signer added (typed or found) takes the focus, so the keyboard goes on where the form grew.
  const [focusId, setFocusId] = useState('');
  useEffect(() => {
    if (focusId) document.getElementById(focusId)?.focus();
  }, [focusId]);

  // A list that cannot be read shows as empty (the reader can still upload); a 401 signs out.
  const emptyOn = (show: (rows: []) => void) => (err: unknown) => {
    if (err instanceof ApiError && err.status === 401) props.onSessionEnded();
    else show([]);
  };

  // The template lists are read when the reader first picks that source.
  useEffect(() => {
    if (form.source === 'template' && !docTemplates)
      calls.docTemplates().then(setDocTemplates, emptyOn(setDocTemplates));
    if (form.source === 'envelope' && !envelopes)
      calls.envelopeTemplates().then(setEnvelopes, emptyOn(setEnvelopes));
  }, [form.source]);

  const set = (change: Partial<TDraftForm>) => setForm((f) => ({ ...f, ...change }));
  const setSigner = (uid: number, change: Partial<TSigner>) =>
    setForm((f) => ({ ...f, signers: f.signers.map((s) => (s.uid === uid ? { ...s, ...change } : s)) }));

  const templateRoles = (id: string) => docTemplates?.find((d) => d.id === id)?.roles ?? [];
  const envelopeRoles = (id: string) =>
    [...(envelopes?.find((e) => e.id === id)?.signers ?? [])].sort((a, b) => a.order - b.order);

  /** The signers as the source and its chosen template call for: a template's roles, else none. */
  function withRoles(f: TDraftForm, roles: { key: string; label: string }[]): TDraftForm {
    const plain = f.signers.map(({ role: _r, ...s }) => s);
    return { ...f, signers: roles.length > 0 ? signersFor(roles, plain) : plain };
  }

  function chooseSource(source: TSource) {
    setForm((f) =>
      withRoles(
        { ...f, source },
        source === 'template'
          ? templateRoles(f.templateId)
          : source === 'envelope'
            ? envelopeRoles(f.envelopeId)
            : [],
      ),
    );
  }

  function chooseTemplate(id: string) {
    setForm((f) => withRoles({ ...f, templateId: id }, templateRoles(id)));
  }

  function chooseEnvelope(id: string) {
    setForm((f) => withRoles({ ...f, envelopeId: id }, envelopeRoles(id)));
  }

  function addFiles(list: FileList | File[] | null | undefined) {
    const notes: string[] = [];
    const added: File[] = [];
    for (const file of Array.from(list ?? [])) {
      const problem = fileProblem(file, [...form.uploads.map((u) => u.file), ...added]);
      if (problem) notes.push(t(`send.files.${problem}`, { name: file.name, mb: UPLOAD_MEGABYTES }));
      else added.push(file);
    }
    setFileNotes(notes);
    if (added.length > 0)
      setForm((f) => ({ ...f, uploads: [...f.uploads, ...added.map((file) => ({ uid: nextUid++, file }))] }));
  }

  async function create(e: Event) {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    setErrors({ beside: {}, rest: [] });
    const sent = form;
    try {
      const draft = await calls.createDraft(
        draftRequest(sent),
        sent.source === 'upload' ? sent.uploads.map((u) => u.file) : [],
      );
      navigate(`/console/send/${encodeURIComponent(draft.id)}`);
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) return props.onSessionEnded();
      const fields: TFieldErrors =
        err instanceof CreateRefused ? err.fields : { '': t('errors.unreachable') };
      const placed = placeErrors(fields, sent);
      setErrors(placed);
      setBusy(false);
      // Focus goes where the reader can learn what to fix: the summary, which links each error.
      setTimeout(() => summary.current?.focus(), 0);
    }
  }

  const err = (id: string) =>
    errors.beside[id] ? (
      <p class="field-error" id={`${id}-error`}>
        {errors.beside[id]}
      </p>
    ) : null;
  const described = (id: string) => (errors.beside[id] ? `${id}-error` : undefined);
  const invalid = (id: string) => (errors.beside[id] ? true : undefined);
  const fixedSigners = form.source !== 'upload' && form.signers.some((s) => s.role);
  const anyError = errors.rest.length > 0 || Object.keys(errors.beside).length > 0;

  return (
    <>
      <h1>{t('send.heading')}</h1>
      <form class="send" noValidate onSubmit={create}>
        <fieldset class="step">
          <legend>{t('send.documents.legend')}</legend>
          <div class="choices" role="radiogroup" aria-label={t('send.documents.source')}>
            {(['upload', 'template', 'envelope'] as const).map((s) => (
              <label key={s} class="choice">
                <input
                  type="radio"
                  name="send-source"
                  value={s}
                  checked={form.source === s}
                  onChange={() => chooseSource(s)}
                />
                {t(`send.documents.${s}`)}
              </label>
            ))}
          </div>

          {form.source === 'upload' ? (
            <>
              <section
                class={over ? 'drop-zone over' : 'drop-zone'}
                aria-labelledby="send-files-label"
                onDragOver={(e) => {
                  e.preventDefault();
                  setOver(true);
                }}
                onDragLeave={() => setOver(false)}
                onDrop={(e) => {
                  e.preventDefault();
                  setOver(false);
                  addFiles(e.dataTransfer?.files);
                }}
              >
                <p id="send-files-label">{t('send.files.drop', { mb: UPLOAD_MEGABYTES })}</p>
                <label for="send-files">{t('send.files.choose')}</label>
                <input
                  id="send-files"
                  type="file"
                  multiple
                  accept={ACCEPT}
                  aria-describedby={described('send-files')}
                  aria-invalid={invalid('send-files')}
                  onChange={(e) => {
                    const input = e.currentTarget as HTMLInputElement;
                    addFiles(input.files);
                    input.value = ''; // the same file can be chosen again after removing it
                  }}
                />
              </section>
              {err('send-files')}
              <div role="status">
                {fileNotes.map((n) => (
                  <p key={n} class="error">
                    {n}
                  </p>
                ))}
              </div>
              {form.uploads.length > 0 && (
                <ol class="uploads" aria-label={t('send.files.list')}>
                  {form.uploads.map((u, i) => (
                    <li key={u.uid} id={`send-doc-${u.uid}`} tabIndex={-1}>
                      <span class="file-name">
                        <bdi id={`send-doc-${u.uid}-name`}>{u.file.name}</bdi>{' '}
                        <span class="muted">{sizeText(u.file.size, lang)}</span>
                      </span>
                      <span class="row-actions">
                        <button
                          type="button"
                          class="secondary"
                          disabled={i === 0}
                          aria-label={t('send.moveUpNamed', { name: u.file.name })}
                          onClick={() => set({ uploads: moved(form.uploads, i, -1) })}
                        >
                          {t('send.moveUp')}
                        </button>
                        <button
                          type="button"
                          class="secondary"
                          disabled={i === form.uploads.length - 1}
                          aria-label={t('send.moveDownNamed', { name: u.file.name })}
                          onClick={() => set({ uploads: moved(form.uploads, i, 1) })}
                        >
                          {t('send.moveDown')}
                        </button>
                        <button
                          type="button"
                          class="secondary"
                          aria-label={t('send.removeNamed', { name: u.file.name })}
                          onClick={() => set({ uploads: form.uploads.filter((x) => x.uid !== u.uid) })}
                        >
                          {t('send.remove')}
                        </button>
                      </span>
                      {isPdf(u.file) && (
                        <label class="choice">
                          <input
                            type="checkbox"
                            checked={u.formFields === true}
                            aria-describedby={`send-doc-${u.uid}-name send-form-fields-hint`}
                            onChange={(e) => {
                              const on = (e.currentTarget as HTMLInputElement).checked;
                              set({
                                uploads: form.uploads.map((x) =>
                                  x.uid === u.uid ? { ...x, formFields: on } : x,
                                ),
                              });
                            }}
                          />
                          {t('sendExtras.formFields.use')}
                        </label>
                      )}
                      {err(`send-doc-${u.uid}`)}
                    </li>
                  ))}
                </ol>
              )}
              {form.uploads.some((u) => isPdf(u.file)) && (
                <p id="send-form-fields-hint" class="muted">
                  {t(form.signers.length > 1 ? 'sendExtras.formFields.several' : 'sendExtras.formFields.one')}
                </p>
              )}
            </>
          ) : (
            <div class="field">
              <label for="send-template">
                {t(
                  form.source === 'template' ? 'send.documents.pickTemplate' : 'send.documents.pickEnvelope',
                )}
              </label>
              <select
                id="send-template"
                value={form.source === 'template' ? form.templateId : form.envelopeId}
                aria-describedby={described('send-template')}
                aria-invalid={invalid('send-template')}
                onChange={(e) => {
                  const id = (e.currentTarget as HTMLSelectElement).value;
                  if (form.source === 'template') chooseTemplate(id);
                  else chooseEnvelope(id);
                }}
              >
                <option value="">{t('send.documents.none')}</option>
                {(form.source === 'template' ? (docTemplates ?? []) : (envelopes ?? [])).map((x) => (
                  <option key={x.id} value={x.id}>
                    {x.name}
                  </option>
                ))}
              </select>
              {err('send-template')}
              {(form.source === 'template' ? docTemplates : envelopes)?.length === 0 && (
                <p class="muted">{t('send.documents.noTemplates')}</p>
              )}
            </div>
          )}
          {form.source !== 'upload' && (
            <SendValues
              rows={form.values ?? []}
              errors={errors.beside}
              onChange={(values) => set({ values })}
            />
          )}
        </fieldset>

        <fieldset class="step" id="send-signers" tabIndex={-1}>
          <legend>{t('send.signers.legend')}</legend>
          {err('send-signers')}
          {!fixedSigners && (
            <PersonSearch
              calls={calls}
              onSessionEnded={props.onSessionEnded}
              onPick={(s) => {
                // The first signer still blank takes the person; else a new one is added.
                const blank = form.signers.find((x) => !x.name && !x.email && !x.phone);
                const taker = blank ?? blankSigner();
                set({
                  signers: blank
                    ? form.signers.map((x) => (x.uid === blank.uid ? { ...x, ...s } : x))
                    : [...form.signers, { ...taker, ...s }],
                });
                setFocusId(`signer-${taker.uid}-name`);
              }}
            />
          )}
          <ol class="signers-form">
            {form.signers.map((s, i) => (
              <li key={s.uid}>
                <SignerFields
                  signer={s}
                  index={i}
                  count={form.signers.length}
                  fixed={fixedSigners}
                  envelope={form.source === 'envelope'}
                  languages={LANGUAGES.map((l) => ({ value: l, name: nativeName(l) }))}
                  errors={errors.beside}
                  onChange={(change) => setSigner(s.uid, change)}
                  onMove={(by) => set({ signers: moved(form.signers, i, by) })}
                  onRemove={() => set({ signers: form.signers.filter((x) => x.uid !== s.uid) })}
                />
              </li>
            ))}
          </ol>
          {!fixedSigners && (
            <button
              type="button"
              class="secondary"
              onClick={() => {
                const added = blankSigner();
                set({ signers: [...form.signers, added] });
                setFocusId(`signer-${added.uid}-name`);
              }}
            >
              {t('send.signers.add')}
            </button>
          )}
          {form.source !== 'envelope' && (
            <div class="choices" role="radiogroup" id="send-order" aria-label={t('send.signers.order')}>
              <label class="choice">
                <input
                  type="radio"
                  name="send-order"
                  checked={!form.inOrder}
                  onChange={() => set({ inOrder: false })}
                />
                {t('send.signers.allAtOnce')}
              </label>
              <label class="choice">
                <input
                  type="radio"
                  name="send-order"
                  checked={form.inOrder}
                  onChange={() => set({ inOrder: true })}
                />
                {t('send.signers.inOrder')}
              </label>
            </div>
          )}
          {err('send-order')}
        </fieldset>

        <fieldset class="step">
          <legend>{t('send.message.legend')}</legend>
          <div class="field">
            <label for="send-label">{t('send.message.label')}</label>
            <input
              id="send-label"
              value={form.label}
              maxLength={255}
              aria-describedby={described('send-label')}
              aria-invalid={invalid('send-label')}
              onInput={(e) => set({ label: (e.currentTarget as HTMLInputElement).value })}
            />
            {err('send-label')}
          </div>
          <div class="field">
            <label for="send-subject">{t('send.message.subject')}</label>
            <input
              id="send-subject"
              value={form.emailSubject}
              maxLength={400}
              aria-describedby={described('send-subject')}
              aria-invalid={invalid('send-subject')}
              onInput={(e) => set({ emailSubject: (e.currentTarget as HTMLInputElement).value })}
            />
            {err('send-subject')}
          </div>
          <div class="field">
            <label for="send-message">{t('send.message.message')}</label>
            <textarea
              id="send-message"
              rows={4}
              value={form.emailMessage}
              maxLength={5000}
              aria-describedby={described('send-message')}
              aria-invalid={invalid('send-message')}
              onInput={(e) => set({ emailMessage: (e.currentTarget as HTMLTextAreaElement).value })}
            />
            {err('send-message')}
          </div>
        </fieldset>

        {/* Focused after a refusal, so it is read first. */}
        <div ref={summary} tabIndex={-1} role="alert" class={anyError ? 'error-summary' : undefined}>
          {anyError && (
            <>
              <p>{t('send.refused')}</p>
              <ul>
                {Object.entries(errors.beside).map(([id, message]) => (
                  <li key={id}>
                    <a
                      href={`#${id}`}
                      onClick={(e) => {
                        e.preventDefault();
                        document.getElementById(id)?.focus();
                      }}
                    >
                      {message}
                    </a>
                  </li>
                ))}
                {errors.rest.map((m) => (
                  <li key={m}>{m}</li>
                ))}
              </ul>
            </>
          )}
        </div>
        <p class="send-next muted">{t('send.next')}</p>
        <button type="submit" disabled={busy}>
          {busy ? t('send.creating') : t('send.create')}
        </button>
      </form>
    </>
  );
}
