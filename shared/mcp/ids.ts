// The ids an agent gives the tools, checked before the API is asked. A bundle or signer id goes
// into the API's path: "." or ".." (or "%2e", which the API decodes) would name another resource
// there ("/bundles/./" is the list of bundles), and the tool would read an answer of another
// shape. The API's ids are made of letters, digits, "-" and "_" only (bundles and signers: 10
// letters and digits; envelope templates: "T-" and 8), so nothing else is taken.
import * as z from 'zod';

const ID = /^[A-Za-z0-9_-]{1,64}$/;

/** An id of the API, described for the agent as `description`; `from` says where to get one. */
export const zApiId = (description: string, from: string) =>
  z
    .string()
    .regex(ID, `Not an id: give the id exactly as ${from} shows it (letters, digits, "-" and "_").`)
    .describe(description);

export const zBundleId = zApiId('The bundle id, e.g. from list_bundles.', 'list_bundles');

/** An id as the API answered it, or undefined for anything else (a resource URI's part). */
export const apiIdOr = (id: unknown): string | undefined =>
  typeof id === 'string' && ID.test(id) ? id : undefined;
