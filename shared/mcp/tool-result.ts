import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { EsignApiError } from './esign-api';

/** A tool's answer: one line for the agent to read, then the data as JSON. */
export function toolResult(summary: string, data: unknown): CallToolResult {
  return { content: [{ type: 'text', text: `${summary}\n${JSON.stringify(data, null, 2)}` }] };
}

/** How an API error reads to an agent: status and code first, then the API's own message. */
export function errorText(err: EsignApiError): string {
  if (err.status === 0) return err.message;
  const code = (err.body as { code?: unknown } | undefined)?.code;
  return `The eSignature API answered ${err.status}${typeof code === 'string' ? ` ${code}` : ''}: ${err.message}`;
}

/**
 * Runs a tool's calls of the API. An error answer comes back as a tool error carrying the API's
 * message (`isError: true`), which the agent reads and can act on; it never fails the MCP
 * request itself. Anything else is a fault of this server and is thrown as usual (the SDK turns
 * it into a tool error too).
 */
export async function asTool(run: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await run();
  } catch (err) {
    if (!(err instanceof EsignApiError)) throw err;
    return { isError: true, content: [{ type: 'text', text: errorText(err) }] };
  }
}

/**
 * How a tool acts, for the agent's client to decide what needs the person's approval: each call
 * makes something new in the world (a bundle, a message), undoes nothing, and doing it twice does it
 * twice.
 */
export const MAKES_SOMETHING = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: true,
} as const;
