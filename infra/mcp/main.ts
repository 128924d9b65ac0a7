// `npx esign-mcp`: the MCP server (shared/mcp/server.ts) over stdio, for agents that start their
// tools as local processes (Claude Desktop, IDEs). Configured by the environment only, as MCP
// clients pass it:
//   ESIGN_API_URL  the API's base URL, e.g. http://localhost:3000/api/v2
//   ESIGN_API_KEY  the API key whose account every tool acts on
// Exit codes: 2 when either is missing or the URL is not http(s). stdout is the protocol's own:
// everything else goes to stderr.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createEsignApi } from '#shared/mcp/esign-api';
import { createEsignMcpServer } from '#shared/mcp/server';

const USAGE = `esign-mcp: the eSignature MCP server over stdio.
Set ESIGN_API_URL (the API's base URL, e.g. http://localhost:3000/api/v2) and ESIGN_API_KEY
(an API key of the account the agent acts for), e.g. in your MCP client's configuration.`;

/** The configuration, or the reason it is not usable. */
function stdioConfig(env: Record<string, string | undefined>): { baseUrl: string; apiKey: string } | string {
  const baseUrl = env.ESIGN_API_URL?.trim();
  const apiKey = env.ESIGN_API_KEY?.trim();
  const missing = [!baseUrl && 'ESIGN_API_URL', !apiKey && 'ESIGN_API_KEY'].filter(Boolean);
  if (missing.length > 0) return `Missing ${missing.join(' and ')}.`;
  let url: URL;
  try {
    url = new URL(baseUrl!);
  } catch {
    return `ESIGN_API_URL is not a URL: ${baseUrl}`;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'ESIGN_API_URL must be an http(s) URL.';
  return { baseUrl: baseUrl!, apiKey: apiKey! };
}

const config = stdioConfig(process.env);
if (typeof config === 'string') {
  process.stderr.write(`${config}\n\n${USAGE}\n`);
  process.exit(2);
}
const server = createEsignMcpServer(createEsignApi(config));
await server.connect(new StdioServerTransport());
