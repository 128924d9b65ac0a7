// The headers between the distribution in front of the service (infra/constructs/edge.ts) and
// what is behind it, named once for the stack, the WAF, the functions' environment and the tests.

/** The header the distribution sends to prove a request came through it (the WAF checks it). */
export const ORIGIN_VERIFY_HEADER = 'x-esign-origin-verify';

/** The header the distribution writes the viewer's address into; a viewer's own value is replaced. */
export const VIEWER_ADDRESS_HEADER = 'x-esign-viewer-address';
