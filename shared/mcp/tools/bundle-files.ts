import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { TEsignApi } from '../esign-api';
import { asTool, toolResult } from '../tool-result';
import { bundleId, bundlePath } from './bundle-status';

interface TFileAnswer {
  file_url: string;
  expires: string;
  doc_key: string;
  kind: string;
  name?: string;
  sha256?: string;
}

export function registerBundleFiles(server: McpServer, api: TEsignApi) {
  server.registerTool(
    'get_bundle_files',
    {
      title: "Download a bundle's files",
      description:
        "Gives download links for a completed bundle's files: the signed and sealed documents " +
        '(kind final), files signers attached, and a certificate of evidence per signer. Links ' +
        'expire after about 15 minutes (see expires): fetch them soon, or call again. Before the ' +
        'bundle is complete and its documents are ready this answers an error.',
      inputSchema: { bundle_id: bundleId },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    ({ bundle_id }) =>
      asTool(async () => {
        const files = (await api.call('GET', bundlePath(bundle_id, 'files/'))).body as TFileAnswer[];
        return toolResult(
          `${files.length} file(s); links expire at ${files[0]?.expires ?? 'once issued'}.`,
          files.map((f) => ({
            kind: f.kind,
            name: f.name ?? f.doc_key,
            doc_key: f.doc_key,
            url: f.file_url,
            expires: f.expires,
            ...(f.sha256 ? { sha256: f.sha256 } : {}),
          })),
        );
      }),
  );
}
