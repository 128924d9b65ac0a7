import { type McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { TEsignApi } from './esign-api';
import { apiIdOr } from './ids';
import { bundlePath } from './tools/bundle-status';

export const BUNDLE_EVENTS_TEMPLATE = 'esign://bundles/{id}/events';

/**
 * A bundle's audit trail as a resource: an agent (or its user) reads what happened to a bundle,
 * in order, without a tool call. Not listable (an account can hold millions of bundles): the id
 * comes from a tool's answer. An API error fails the read with the API's message.
 */
export function registerBundleEvents(server: McpServer, api: TEsignApi) {
  server.registerResource(
    'bundle-events',
    new ResourceTemplate(BUNDLE_EVENTS_TEMPLATE, { list: undefined }),
    {
      title: "A bundle's events",
      description:
        'The audit events of one bundle, oldest first: created, sent, each signer opening, ' +
        'signing or declining, reminders, completion. Each has kind, description, timestamp and ' +
        'packet_id (the signer_id, for signer events).',
      mimeType: 'application/json',
    },
    async (uri, { id }) => {
      const bundleId = apiIdOr(id);
      if (!bundleId) throw new Error('Not a bundle id: give the id exactly as list_bundles shows it.');
      const events = (await api.call('GET', bundlePath(bundleId, 'events/'))).body as unknown[];
      return {
        contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(events, null, 2) }],
      };
    },
  );
}
