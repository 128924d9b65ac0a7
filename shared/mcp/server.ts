// The one definition of the MCP server (ARCHITECTURE.md, "AI agents (MCP)"): its tools and
// resources, each a thin call of the public REST API with the caller's key. The stdio command
// (infra/mcp/main.ts) and the /mcp function (functions/mcp/app.ts) serve this same server.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { registerBundleEvents } from './bundle-events';
import type { TEsignApi } from './esign-api';
import { registerBundleFiles } from './tools/bundle-files';
import { registerBundleStatus } from './tools/bundle-status';
import { registerCancelBundle } from './tools/cancel-bundle';
import { registerListEnvelopeTemplates, registerSendFromEnvelopeTemplate } from './tools/envelope-templates';
import { registerListBundles } from './tools/list-bundles';
import { registerRemindSigner } from './tools/remind-signer';
import { registerSendDocument } from './tools/send-document';

export const MCP_SERVER_INFO = { name: 'open-esign', version: '0.1.0' } as const;

const INSTRUCTIONS =
  'Tools for an eSignature service: send PDFs for signature, follow bundles (a bundle is one ' +
  'signing request: documents and their signers), remind signers, cancel, and fetch the signed ' +
  'files. Every call acts on the account of the API key this server was given.';

export function createEsignMcpServer(api: TEsignApi): McpServer {
  const server = new McpServer(MCP_SERVER_INFO, { instructions: INSTRUCTIONS });
  registerSendDocument(server, api);
  registerListBundles(server, api);
  registerBundleStatus(server, api);
  registerRemindSigner(server, api);
  registerCancelBundle(server, api);
  registerBundleFiles(server, api);
  registerListEnvelopeTemplates(server, api);
  registerSendFromEnvelopeTemplate(server, api);
  registerBundleEvents(server, api);
  return server;
}
