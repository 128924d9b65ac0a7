// @ts-check
// What the signing page knows, in one place: the service's latest answer (the signer API's state)
// and this visit's working state of the signer's fields. The modules read and change it here
// rather than keeping copies.

/** The service's view of the signer, as the signer API last answered it. */
export const page = {
  /** @type {any} */
  state: undefined,
  /** Set when this visit finished signing: its "done" page may then take the signer onward. */
  justFinished: false,
};

/**
 * @typedef {object} TFieldModel One field on the page: the service's view of it and the signer's
 *   current value, with the elements that show it once drawn.
 * @property {any} f
 * @property {string} path
 * @property {string} value
 * @property {boolean} mine
 * @property {HTMLElement} [box]
 * @property {any} [control]
 * @property {HTMLElement} [err]
 * @property {HTMLElement} [echo] what the field on the page shows while its control is in the phone's sheet
 * @property {HTMLElement} [fileName]
 * @property {string} [clientError]
 * @property {string} [serverError]
 * @property {string} [requiredError]
 * @property {boolean} [saveFailed]
 * @property {boolean} [hidden] its conditions hide it (conditions.js)
 */

export const form = {
  /** @type {TFieldModel[]} every field on the documents */
  models: [],
  /** @type {TFieldModel[]} this signer's fields, in the order the guide visits them */
  mine: [],
  /** @type {TFieldModel | undefined} the field in hand */
  current: undefined,
  /** @type {Set<TFieldModel>} the fields the signer has been to: "Next field" offers an optional one only once (guide.js) */
  visited: new Set(),
  /** @type {Map<string, string>} drawn marks of this visit (the service keeps them, but does not send them back) */
  marks: new Map(),
  /** @type {{ sig: any, ini: any }} the last signature and initials applied, offered again for the next such field */
  lastMark: { sig: undefined, ini: undefined },
};
