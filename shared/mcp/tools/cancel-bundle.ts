import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { bundleStatus, type TBundleAnswer } from '../bundle-summary';
import type { TEsignApi } from '../esign-api';
import { asTool, toolResult } from '../tool-result';
import { bundleId, bundlePath } from './bundle-status';

export function registerCancelBundle(server: McpServer, api: TEsignApi) {
  server.registerTool(
    'cancel_bundle',
    {
      title: 'Cancel a bundle',
      description:
        'Cancels a bundle that is not finished: its signing links stop working and signers who ' +
        'have not signed can no longer sign. Cannot be undone; a finished bundle (complete, ' +
        'cancelled, expired) cannot be cancelled.',
      inputSchema: { bundle_id: bundleId },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    },
    ({ bundle_id }) =>
      asTool(async () => {
        const b = (await api.call('PUT', bundlePath(bundle_id, 'cancel/'))).body as TBundleAnswer;
        return toolResult(`Bundle ${b.id} is cancelled.`, bundleStatus(b));
      }),
  );
}
