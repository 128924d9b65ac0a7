// @ts-check
// The bundle editor tells the window that frames it what happened (ready, saved, sent, closed),
// as `{source: "esign-editor", event, bundle_id}`, and only a parent whose origin the service
// handed the page (its own origin and the account's embed origins, `data-parent-origins`). The
// parent's origin is read from the browser (location.ancestorOrigins, else document.referrer);
// a message is never posted to '*'.

/** The allowed origins the page was given. */
function allowedOrigins() {
  try {
    const list = JSON.parse(document.documentElement.dataset.parentOrigins ?? '[]');
    return Array.isArray(list) ? list.filter((o) => typeof o === 'string') : [];
  } catch {
    return [];
  }
}

/** The origin of the window framing this page, as the browser tells it; undefined when not framed. */
export function parentOrigin(win = window) {
  if (win.parent === win) return undefined;
  const ancestors = win.location.ancestorOrigins;
  if (ancestors && ancestors.length > 0) return ancestors[0];
  try {
    return win.document.referrer ? new URL(win.document.referrer).origin : undefined;
  } catch {
    return undefined;
  }
}

/** The parent's origin when it is one the page may talk to; undefined otherwise. */
export function allowedParent(origin, allowed) {
  return origin && origin !== 'null' && allowed.includes(origin) ? origin : undefined;
}

/** Whether the page is framed by a window it may tell what happened. */
export const framedByAllowed = () => allowedParent(parentOrigin(), allowedOrigins()) !== undefined;

/** Tells the parent window, if it is allowed, that `event` happened to the bundle. */
export function tellParent(event, bundleId) {
  const target = allowedParent(parentOrigin(), allowedOrigins());
  if (!target) return false;
  window.parent.postMessage({ source: 'esign-editor', event, bundle_id: bundleId }, target);
  return true;
}
