// Which Lambda serves which top-level path below /api/v2. The CDK stack creates these API
// Gateway resources and the local runtime routes requests by the same table.

export type TFunctionName =
  | 'persons'
  | 'templates'
  | 'account'
  | 'bundles'
  | 'packets'
  | 'webhooks'
  | 'public-pages'
  | 'envelope-templates'
  | 'mcp'
  | 'console';

export const API_ROUTES: { resource: string; fn: TFunctionName }[] = [
  { resource: 'persons', fn: 'persons' },
  { resource: 'bundles', fn: 'bundles' },
  { resource: 'packets', fn: 'packets' },
  { resource: 'templates', fn: 'templates' },
  { resource: 'webhooks', fn: 'webhooks' },
  { resource: 'envelope-templates', fn: 'envelope-templates' },
  { resource: 'rate_limit', fn: 'account' },
  // The account's settings as its users manage them (functions/account): keys, brands, defaults.
  { resource: 'account', fn: 'account' },
  { resource: 'api-keys', fn: 'account' },
  { resource: 'signing-brands', fn: 'account' },
  // POST /api/v2/verify/: is this a file this service sealed for the caller's account?
  { resource: 'verify', fn: 'bundles' },
  // An account's people, for its admins (functions/console/admin-app.ts).
  { resource: 'users', fn: 'console' },
  { resource: 'invitations', fn: 'console' },
  { resource: 'teams', fn: 'console' },
  { resource: 'security_log', fn: 'console' },
];

/**
 * Paths below /api/v2 that need no API key: the API's own description (it describes the wire
 * format, nothing of any account), so client generators can fetch it without a key.
 */
export const PUBLIC_API_ROUTES: { resource: string; fn: TFunctionName }[] = [
  { resource: 'openapi.json', fn: 'public-pages' },
];

/**
 * Top-level paths outside /api/v2 that API Gateway serves without its authorizer: the signing
 * pages and the signer API (their own link and session tokens authenticate), the public
 * verification page, served at the root of the API's stage, and the MCP endpoint, whose function
 * has the API itself check the caller's key (it takes `Bearer` too, which the authorizer does not).
 */
export const PUBLIC_ROUTES: { resource: string; fn: TFunctionName }[] = [
  { resource: 'sign', fn: 'public-pages' },
  // The public verification page and its check (functions/public-pages/verify-page.ts): no API key.
  { resource: 'verify', fn: 'public-pages' },
  // Portal smart links (functions/public-pages/portal-page.ts): a public form that starts a bundle.
  { resource: 'portal', fn: 'public-pages' },
  // Stripe's webhook (its signature authenticates it) and the local test checkout page.
  { resource: 'payments', fn: 'public-pages' },
  // Template preparation pages and their API (functions/public-pages/prepare-page.ts): link tokens.
  { resource: 'prepare', fn: 'public-pages' },
  // The API reference page (functions/public-pages/docs-page.ts): the OpenAPI description, readable.
  { resource: 'docs', fn: 'public-pages' },
  // The MCP server for AI agents over streamable HTTP (functions/mcp): an API key, checked by the API.
  { resource: 'mcp', fn: 'mcp' },
  // The sender console's sign-in and session API (functions/console): links, sessions, cookies.
  // Nested: the console's pages are served at /console itself.
  { resource: 'console/api', fn: 'console' },
];
