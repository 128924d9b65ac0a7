// @ts-check
// Small DOM helpers. The page's Content-Security-Policy forbids inline styles in markup, so
// positions and sizes are set through element.style (CSSOM), never a style attribute.

/**
 * Creates an element. `attrs`: `class`, `text`, `dataset`, `on<event>` handlers, the properties
 * `value`/`checked`/`disabled`/`hidden`, and plain attributes (true → present, false/null → absent).
 */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') node.addEventListener(k.slice(2), v);
    else if (k === 'class') node.className = v;
    else if (k === 'text') node.textContent = v;
    else if (k === 'dataset') Object.assign(node.dataset, v);
    else if (k === 'value' || k === 'checked' || k === 'disabled' || k === 'hidden') node[k] = v;
    else node.setAttribute(k, v === true ? '' : String(v));
  }
  append(node, children);
  return node;
}

export function append(node, children) {
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    node.append(c instanceof Node ? c : String(c));
  }
  return node;
}

let ids = 0;
/** A unique element id. */
export const uid = (prefix) => `${prefix}-${++ids}`;

/** Whether the person asked for less motion. */
export const reducedMotion = () => window.matchMedia('(prefers-reduced-motion: reduce)').matches;

/** Says `text` to screen readers through the page's live region. */
export function announce(text) {
  const region = document.getElementById('announcer');
  if (!region) return;
  region.textContent = '';
  // A fresh text node after a tick makes screen readers speak a repeated message too.
  setTimeout(() => {
    region.textContent = text;
  }, 30);
}
