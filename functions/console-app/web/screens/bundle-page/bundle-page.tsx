// A bundle's page: what it is and where it stands, its signers, its history, what the sender may
// do now and its files. While it is open it asks the API again every few seconds, so signers
// opening, signing or declining show without a reload; a step taken here reloads at once.
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../../api';
import { bundleApi, type TBundle, type TEvent, type TFile } from '../../bundle-api';
import type { TScreenProps } from '../../routes';
import { useWords } from '../../words';
import { ChangeForm } from './change-form';
import { Confirm } from './confirm';
import { Downloads } from './downloads';
import { Signers } from './signers';
import { Timeline } from './timeline';

/** How often the open page asks again; a finished bundle with nothing left to come, less often. */
export const BUNDLE_REFRESH_MS = 5_000;
const SETTLED_REFRESH_MS = 30_000;
/** File links are asked for again when the ones shown have less than this left. */
const LINK_MARGIN_MS = 2 * 60_000;
const FINISHED = ['co', 'ca', 'ex', 'fa'];

export function BundlePage(props: TScreenProps) {
  const { t, lang } = useWords();
  const id = props.params[0] ?? '';
  const calls = bundleApi(props.api);
  const [bundle, setBundle] = useState<TBundle | undefined>(undefined);
  const [events, setEvents] = useState<TEvent[]>([]);
  const [files, setFiles] = useState<TFile[] | undefined>(undefined);
  const [problem, setProblem] = useState<'notFound' | 'failed' | undefined>(undefined);
  const [notice, setNotice] = useState<{ words: string; failed?: boolean } | undefined>(undefined);
  const [confirming, setConfirming] = useState(false);
  const [cancelling, setCancelling] = useState(false);
  const asked = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const filesRef = useRef<TFile[] | undefined>(undefined);

  const failure = (err: unknown) => {
    if (err instanceof ApiError && err.status === 401) return props.onSessionEnded();
    if (err instanceof ApiError && err.status === 409)
      return setNotice({ words: t('bundle.conflict'), failed: true });
    setNotice({ words: t('errors.unreachable'), failed: true });
  };

  // One look at the bundle, its events and (once the API serves them) fresh file links.
  async function load() {
    const mine = ++asked.current;
    clearTimeout(timer.current);
    try {
      const [b, ev] = await Promise.all([calls.bundle(id), calls.events(id)]);
      let fresh = filesRef.current;
      const stale = !fresh || fresh.some((f) => Date.parse(f.expires) - Date.now() < LINK_MARGIN_MS);
      if (b.status === 'co' && b.docs_ready && stale) fresh = await calls.files(id);
      if (mine !== asked.current) return;
      filesRef.current = fresh;
      setBundle(b);
      setEvents(ev);
      setFiles(fresh);
      setProblem(undefined);
      // Still asked now and then: a finished bundle's final documents may still be on their way,
      // and its links must be renewed before they expire.
      if (FINISHED.includes(b.status) && (b.status !== 'co' || fresh)) {
        timer.current = setTimeout(load, SETTLED_REFRESH_MS);
        return;
      }
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) return props.onSessionEnded();
      if (mine !== asked.current) return;
      if (err instanceof ApiError && err.status === 404) return setProblem('notFound');
      setProblem('failed');
    }
    timer.current = setTimeout(load, BUNDLE_REFRESH_MS);
  }

  useEffect(() => {
    void load();
    return () => {
      asked.current++;
      clearTimeout(timer.current);
    };
  }, [id]);

  const say = (words: string, failed?: boolean) => setNotice({ words, failed });

  async function cancel() {
    setCancelling(true);
    try {
      await calls.cancel(id);
      setConfirming(false);
      say(t('bundle.cancel.done'));
      void load();
    } catch (err) {
      setConfirming(false);
      failure(err);
    } finally {
      setCancelling(false);
    }
  }

  const back = (
    <p class="back">
      <a href="/console/">{t('bundle.back')}</a>
    </p>
  );
  if (problem === 'notFound')
    return (
      <>
        {back}
        <h1>{t('bundle.notFound.heading')}</h1>
        <p>{t('bundle.notFound.text')}</p>
      </>
    );
  if (!bundle)
    return (
      <>
        {back}
        {problem === 'failed' ? (
          <p class="error" role="alert">
            {t('bundle.failed')}
          </p>
        ) : (
          <p role="status">{t('bundle.loading')}</p>
        )}
      </>
    );

  const dates = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' });
  const when = (iso: string | null) => (iso ? dates.format(new Date(iso)) : '—');
  const open = !FINISHED.includes(bundle.status);
  const changeable = bundle.status === 'dr' || bundle.status === 'se';
  const sender = [bundle.requester_name, bundle.requester_email].filter(Boolean).join(' · ');

  return (
    <>
      {back}
      <header class="bundle-head">
        <h1>
          <bdi>{bundle.label || t('bundles.untitled')}</bdi>
        </h1>
        <span class={`status status-${bundle.status}`}>{t(`status.${bundle.status}`)}</span>
      </header>
      <p class="notice-area" role="status">
        {notice && <span class={notice.failed ? 'error' : 'notice'}>{notice.words}</span>}
      </p>
      {problem === 'failed' && (
        <p class="error" role="alert">
          {t('bundle.failed')}
        </p>
      )}
      <dl class="bundle-facts">
        <div>
          <dt>{t('bundle.facts.id')}</dt>
          <dd class="id">{bundle.id}</dd>
        </div>
        <div>
          <dt>{t('bundle.facts.sender')}</dt>
          <dd>
            <bdi>{sender || '—'}</bdi>
          </dd>
        </div>
        <div>
          <dt>{t('bundle.facts.created')}</dt>
          <dd>{when(bundle.created)}</dd>
        </div>
        <div>
          <dt>{t('bundle.facts.sent')}</dt>
          <dd>{when(bundle.sent)}</dd>
        </div>
        {bundle.completed_at && (
          <div>
            <dt>{t('bundle.facts.completed')}</dt>
            <dd>{when(bundle.completed_at)}</dd>
          </div>
        )}
        <div>
          <dt>{t('bundle.facts.expires')}</dt>
          <dd>{bundle.expires ? when(bundle.expires) : t('bundle.facts.noExpiry')}</dd>
        </div>
      </dl>

      {open && (
        <div class="actions bundle-actions">
          {bundle.status === 'dr' && (
            <a class="button" href={`/console/send/${encodeURIComponent(bundle.id)}`}>
              {t('bundle.continueEditing')}
            </a>
          )}
          <button type="button" class="danger" onClick={() => setConfirming(true)}>
            {t('bundle.cancel.button')}
          </button>
        </div>
      )}
      {changeable && (
        <ChangeForm
          key={`${bundle.label}|${bundle.expires}|${bundle.send_reminders}`}
          bundle={bundle}
          calls={calls}
          onDone={(words) => {
            say(words);
            void load();
          }}
          onFailure={failure}
        />
      )}

      <Signers
        bundle={bundle}
        events={events}
        calls={calls}
        onChanged={() => void load()}
        say={say}
        onFailure={failure}
      />
      <Downloads bundle={bundle} files={files} />
      <Timeline events={events} packets={bundle.packets} userId={props.session.user.id} />

      <Confirm
        open={confirming}
        title={t('bundle.cancel.title')}
        confirm={t('bundle.cancel.confirm')}
        keep={t('bundle.cancel.keep')}
        busy={cancelling}
        onConfirm={cancel}
        onClose={() => setConfirming(false)}
      >
        <p>{t('bundle.cancel.text', { label: bundle.label || t('bundles.untitled') })}</p>
      </Confirm>
    </>
  );
}
