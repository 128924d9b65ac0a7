// Walks the console's single sign-on over real HTTP, as a browser would: the sign-in screen's call to start,
// the redirects to the local OIDC stand-in, its sign-in form, and back to the callback, keeping
// each origin's cookies. Every step's answer is checked by the caller through what it returns.
import { expect } from 'vitest';

type TJar = Map<string, Map<string, string>>;

function keep(jar: TJar, url: string, res: Response) {
  const origin = new URL(url).origin;
  const cookies = jar.get(origin) ?? new Map<string, string>();
  for (const line of res.headers.getSetCookie()) {
    const [pair = '', ...attrs] = line.split(';');
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq).trim();
    const gone = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a)) || pair.slice(eq + 1) === '';
    if (gone) cookies.delete(name);
    else cookies.set(name, pair.slice(eq + 1));
  }
  jar.set(origin, cookies);
}

const cookieHeader = (jar: TJar, url: string) =>
  [...(jar.get(new URL(url).origin) ?? new Map()).entries()].map(([k, v]) => `${k}=${v}`).join('; ');

async function go(jar: TJar, url: string, init: RequestInit = {}) {
  const res = await fetch(url, {
    ...init,
    redirect: 'manual',
    headers: { ...(init.headers as Record<string, string>), cookie: cookieHeader(jar, url) },
  });
  keep(jar, url, res);
  const location = res.headers.get('location');
  return { res, next: location ? new URL(location, url).href : undefined };
}

export interface TSsoRun {
  /** Where the service sent the browser at the end: `/console/` or `/console/?sso=<reason>`. */
  landed: string;
  /** The session cookie set by the callback, if any (`esign_session=…`). */
  session?: string;
  /** The callback URL the provider sent the browser to, to replay it. */
  callback?: string;
  jar: TJar;
}

/**
 * Starts with `email` on the console's form, signs in at the stand-in as `loginAs`, and lets
 * `alter` change the callback URL (a tampered state) before the browser follows it.
 */
export async function ssoSignIn(
  baseUrl: string,
  email: string,
  loginAs: string,
  alter: (callback: URL) => void = () => {},
): Promise<TSsoRun> {
  const jar: TJar = new Map();
  const start = await go(jar, `${baseUrl}/console/api/sso/start`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email }),
  });
  expect(start.res.status).toBe(200);
  let url = ((await start.res.json()) as { url: string }).url;
  if (url.startsWith(baseUrl)) return { landed: url.slice(baseUrl.length), jar };
  // At the provider: its authorization endpoint sends the browser to its sign-in page.
  let step = await go(jar, url);
  while (step.next && !step.next.includes('/interaction/')) step = await go(jar, step.next);
  const page = await go(jar, step.next!);
  expect(page.res.status).toBe(200);
  const action = /action="(\/interaction\/[^"]+\/login)"/.exec(await page.res.text())?.[1];
  expect(action).toBeTruthy();
  step = await go(jar, new URL(action!, step.next!).href, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email: loginAs }).toString(),
  });
  url = step.next!;
  while (!url.startsWith(baseUrl)) {
    step = await go(jar, url);
    url = step.next!;
  }
  const callback = new URL(url);
  alter(callback);
  const done = await go(jar, callback.href);
  expect(done.res.status).toBe(303);
  const session = done.res.headers
    .getSetCookie()
    .map((c) => /^(esign_session=[0-9A-Za-z]{43});/.exec(c)?.[1])
    .find(Boolean);
  return {
    landed: done.next!.slice(baseUrl.length),
    ...(session ? { session } : {}),
    callback: callback.href,
    jar,
  };
}
