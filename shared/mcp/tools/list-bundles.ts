import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import {
  BUNDLE_STATUS_CODES,
  BUNDLE_STATUS_HELP,
  bundleSummary,
  type TBundleAnswer,
} from '../bundle-summary';
import { paginationOf, type TEsignApi } from '../esign-api';
import { asTool, toolResult } from '../tool-result';

const inputSchema = {
  search: z
    .string()
    .max(200)
    .optional()
    .describe(
      "Words to find: each must start a word of the bundle's id, label or custom key, or of a " +
        "signer's name, email or phone.",
    ),
  // At least one: an empty list would filter nothing and list every bundle, which an agent that
  // meant to narrow the list would take for an answer.
  status: z
    .array(z.enum(BUNDLE_STATUS_CODES, `Choose from ${BUNDLE_STATUS_HELP}.`))
    .min(1, 'Give at least one status, or leave status out to list bundles in any status.')
    .optional()
    .describe(`Only bundles in any of these statuses: ${BUNDLE_STATUS_HELP}.`),
  tags: z
    .array(z.string().min(1).max(100))
    .max(50)
    .optional()
    .describe('Only bundles with any of these tags.'),
  ordering: z
    .enum(['-created', 'created', '-sent', 'sent', '-completed_at', 'completed_at'])
    .optional()
    .describe('Sort order; newest created first by default. A leading "-" means newest first.'),
  page: z.number().int().min(1).optional().describe('Page number, from 1.'),
  per_page: z
    .number()
    .int()
    .min(1)
    .max(100)
    .optional()
    .describe('Bundles per page (default 20, at most 100).'),
};

export function registerListBundles(server: McpServer, api: TEsignApi) {
  server.registerTool(
    'list_bundles',
    {
      title: 'List and find bundles',
      description:
        'Lists the bundles (documents sent for signature) of the account, newest first, a page ' +
        'at a time: filter by words (search), status and tags. Each bundle shows its id, label, ' +
        'status and signers; the answer says which page it is and how many match in all.',
      inputSchema,
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    (input) =>
      asTool(async () => {
        const res = await api.call('GET', '/bundles/', {
          query: {
            search: input.search,
            status__in: input.status?.join(','),
            tag__in: input.tags?.join(','),
            ordering: input.ordering,
            page: input.page,
            per_page: input.per_page ?? 20,
          },
        });
        const bundles = (res.body as TBundleAnswer[]).map(bundleSummary);
        const paging = paginationOf(res.headers, bundles.length);
        return toolResult(
          `${paging.total} bundle(s) match; page ${paging.page} of ${paging.total_pages} shows ${bundles.length}.`,
          { ...paging, bundles },
        );
      }),
  );
}
