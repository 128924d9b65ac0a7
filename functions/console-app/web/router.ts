// The console's few paths, routed in the browser: the server answers the same page for each.
import { useEffect, useState } from 'preact/hooks';

/** The page's path, kept current as the reader moves back and forth. */
export function usePath(): string {
  const [path, setPath] = useState(location.pathname);
  useEffect(() => {
    const changed = () => setPath(location.pathname);
    addEventListener('popstate', changed);
    return () => removeEventListener('popstate', changed);
  }, []);
  return path;
}

/** Goes to a console path; `replace` leaves no history entry (a used sign-in link's, say). */
export function navigate(path: string, replace = false): void {
  if (replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  dispatchEvent(new PopStateEvent('popstate'));
}

/** The token of a sign-in link's path, `/console/sign-in/<token>`; undefined on any other path. */
export const signInToken = (path: string): string | undefined =>
  /^\/console\/sign-in\/([A-Za-z0-9]{1,128})\/?$/.exec(path)?.[1];

/**
 * Follows the console's own links in the page instead of loading it again: a plain click on an
 * `<a href="/console/…">` (no modifier key, no other target, not a download, not the API's
 * paths) becomes `navigate`, so screens write ordinary links.
 */
export function followLinksInPage(root: Document = document): void {
  root.addEventListener('click', (e) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    const a = (e.target as Element | null)?.closest?.('a');
    if (!a || (a.target && a.target !== '_self') || a.hasAttribute('download')) return;
    const url = new URL(a.href, location.href);
    if (url.origin !== location.origin || !url.pathname.startsWith('/console/')) return;
    if (url.pathname.startsWith('/console/api/')) return;
    e.preventDefault();
    navigate(url.pathname + url.search + url.hash);
  });
}
