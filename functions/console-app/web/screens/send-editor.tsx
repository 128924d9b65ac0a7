// A draft's editor inside the console (`/console/send/<bundle id>`): the preparation page, opened
// by a one-time link from `POST /api/v2/bundles/<id>/prepare_url/`, in a frame. The page tells
// its parent what happened by postMessage; only messages from the service's own origin, from this
// very frame, about this bundle are heeded: "sent" goes to the bundle's page, "saved" is said,
// "closed" goes back to the list. The same path reopens a draft saved before.
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api';
import { editorMessage } from '../editor-messages';
import { navigate } from '../router';
import type { TScreenProps } from '../routes';
import { sendApi } from '../send-api';
import { useWords } from '../words';

/** No bundle of the account has this id (another account's answers the same). */
class Missing extends Error {}

type TState =
  | { kind: 'loading' }
  | { kind: 'editing'; url: string; label: string }
  | { kind: 'not-draft'; status: string }
  | { kind: 'missing' }
  | { kind: 'failed' };

export function SendEditor(props: TScreenProps) {
  const { t, lang } = useWords();
  const id = props.params[0] ?? '';
  const calls = sendApi(props.api, props.session.csrf_token);
  const [state, setState] = useState<TState>({ kind: 'loading' });
  const [said, setSaid] = useState('');
  const [attempt, setAttempt] = useState(0);
  const frame = useRef<HTMLIFrameElement>(null);

  useEffect(() => {
    let live = true;
    (async () => {
      try {
        const bundle = await calls.bundle(id).catch((err) => {
          if (err instanceof ApiError && err.status === 404) throw new Missing();
          throw err;
        });
        if (bundle.status !== 'dr') return live && setState({ kind: 'not-draft', status: bundle.status });
        const url = new URL((await calls.prepareUrl(id)).url, location.href);
        // The editor is the service's own page; a link elsewhere is not framed.
        if (url.origin !== location.origin) throw new Error('foreign editor');
        url.searchParams.set('lang', lang); // it speaks the reader's language, as it opens
        if (live) setState({ kind: 'editing', url: url.href, label: bundle.label });
      } catch (err) {
        if (!live) return;
        if (err instanceof ApiError && err.status === 401) return props.onSessionEnded();
        if (err instanceof Missing) return setState({ kind: 'missing' });
        // Sent by someone else between the two calls.
        if (err instanceof ApiError && err.status === 409)
          return setState({ kind: 'not-draft', status: 'se' });
        setState({ kind: 'failed' });
      }
    })();
    return () => {
      live = false;
    };
  }, [id, attempt]);

  useEffect(() => {
    const heard = (e: MessageEvent) => {
      if (e.origin !== location.origin || e.source !== frame.current?.contentWindow) return;
      const m = editorMessage(e.data, id);
      if (!m) return;
      if (m.event === 'sent') navigate(`/console/bundles/${encodeURIComponent(id)}`);
      else if (m.event === 'closed') navigate('/console/');
      else if (m.event === 'saved')
        setSaid(t('send.editor.saved', { time: new Date().toLocaleTimeString(lang) }));
    };
    addEventListener('message', heard);
    return () => removeEventListener('message', heard);
  }, [id, t, lang]);

  const bundleLink = <a href={`/console/bundles/${encodeURIComponent(id)}`}>{t('send.editor.openBundle')}</a>;

  return (
    <div class="send-editor">
      <h1>{state.kind === 'editing' && state.label ? <bdi>{state.label}</bdi> : t('send.editor.heading')}</h1>
      <p role="status" class={said ? 'notice' : 'visually-hidden'}>
        {said}
      </p>
      {state.kind === 'loading' && <p role="status">{t('send.editor.loading')}</p>}
      {state.kind === 'editing' && (
        <>
          <p class="muted">{t('send.editor.hint')}</p>
          <iframe ref={frame} class="editor-frame" title={t('send.editor.frame')} src={state.url} />
        </>
      )}
      {state.kind === 'not-draft' && (
        <p class="notice" role="alert">
          {t('send.editor.notDraft', { status: t(`status.${state.status}`) })} {bundleLink}
        </p>
      )}
      {state.kind === 'missing' && (
        <p class="error" role="alert">
          {t('send.editor.missing')}
        </p>
      )}
      {state.kind === 'failed' && (
        <div role="alert">
          <p class="error">{t('send.editor.failed')}</p>
          <button type="button" onClick={() => setAttempt((n) => n + 1)}>
            {t('send.editor.retry')}
          </button>
        </div>
      )}
      <p>
        <a href="/console/">{t('send.editor.back')}</a>
      </p>
    </div>
  );
}
