import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { bundleStatus, type TBundleAnswer } from '../bundle-summary';
import type { TEsignApi } from '../esign-api';
import { zBundleId } from '../ids';
import { asTool, toolResult } from '../tool-result';

export const bundleId = zBundleId;

/** The API's path of a bundle: an id is never spliced into a path unencoded. */
export const bundlePath = (id: string, rest = '') => `/bundles/${encodeURIComponent(id)}/${rest}`;

export function registerBundleStatus(server: McpServer, api: TEsignApi) {
  server.registerTool(
    'get_bundle_status',
    {
      title: "A bundle's status and who has not signed",
      description:
        "Shows one bundle: its status, each signer's status, and not_signed_yet, the signers who " +
        'have not signed (with the signer_id that remind_signer takes). A complete bundle with ' +
        'docs_ready true has its signed files ready for get_bundle_files.',
      inputSchema: { bundle_id: bundleId },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    ({ bundle_id }) =>
      asTool(async () => {
        const b = (await api.call('GET', bundlePath(bundle_id))).body as TBundleAnswer;
        const status = bundleStatus(b);
        const waiting = status.not_signed_yet.map((s) => s.name);
        return toolResult(
          `Bundle ${b.id} is ${status.status_meaning}; ${
            waiting.length === 0 ? 'every signer has signed' : `not signed yet: ${waiting.join(', ')}`
          }.`,
          status,
        );
      }),
  );
}
