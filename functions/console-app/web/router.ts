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
