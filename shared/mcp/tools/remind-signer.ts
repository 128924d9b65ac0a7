import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { TEsignApi } from '../esign-api';
import { zApiId } from '../ids';
import { asTool, MAKES_SOMETHING, toolResult } from '../tool-result';

export function registerRemindSigner(server: McpServer, api: TEsignApi) {
  server.registerTool(
    'remind_signer',
    {
      title: 'Remind a signer',
      description:
        'Sends a signer a reminder with a fresh signing link, by the way they were asked to sign ' +
        '(email or text). Takes the signer_id from get_bundle_status. At most one reminder an ' +
        'hour per signer, and only while the signer and the bundle are still open.',
      inputSchema: {
        signer_id: zApiId('The signer_id from get_bundle_status.', 'get_bundle_status'),
      },
      annotations: MAKES_SOMETHING,
    },
    ({ signer_id }) =>
      asTool(async () => {
        const p = (await api.call('PUT', `/packets/${encodeURIComponent(signer_id)}/remind/`)).body as {
          id: string;
          name: string;
          status: string;
        };
        return toolResult(`Reminder sent to ${p.name}.`, { signer_id: p.id, name: p.name, status: p.status });
      }),
  );
}
