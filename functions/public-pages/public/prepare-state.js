// @ts-check
// What the preparation editor (prepare.js) holds while a person works: one editor over a template
// (`/prepare/<token>`) or over a draft bundle (`/prepare/bundle/<token>`, `data-mode="bundle"`).
// The two APIs name two field properties differently; everything else is the same.

export const BUNDLE = document.documentElement.dataset.mode === 'bundle';
/** Who fills a field in: a template's roles, a bundle's signers (packet keys). */
export const ROLES = BUNDLE ? 'editors' : 'editor_roles';
/** A field's value before anyone fills it in. */
export const VALUE = BUNDLE ? 'initial_value' : 'default_value';

/**
 * `docs`: the documents ({key, name, pages}; a template has one, key ''); `roles`: {key, label,
 * email?} (a bundle's signers); `fields`: the API's fields plus `_doc` (their document's key) and
 * `_error` (what the service said of the field at the last save); `frames`: a page each.
 */
export const state = {
  version: 0,
  name: '',
  bundleId: '',
  docs: [],
  roles: [],
  fields: [],
  allowed: null,
  selected: null,
  frames: [],
  snap: true,
  /** The signer being previewed, or null while editing. */
  preview: null,
};

/** The parts of the page that redraw themselves; set by prepare.js. */
export const redraw = { fields: () => {}, props: () => {}, roles: () => {} };

export const roleLabel = (key) => state.roles.find((r) => r.key === key)?.label || key;
