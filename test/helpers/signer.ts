// The signer API as the tests call it: `/sign/api/*` with the session header, and a session opened
// from a packet's embed URL.
import { expect } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import type { apiClient } from './runtime';

/** A 1 × 1 PNG as a data URL: a drawn signature, or an attachment. */
export const PNG_DATA_URL =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

export interface TSignerAnswer {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON answers
  body: any;
}

/** Calls the signer API, with a session when given; a JSON body, or raw bytes of a type. */
export function signerClient(runtime: TRuntime) {
  return async function sign(
    method: string,
    path: string,
    session?: string,
    json?: unknown,
    raw?: { body: Buffer; type: string },
  ): Promise<TSignerAnswer> {
    const headers: Record<string, string> = {};
    if (session) headers['x-signing-session'] = session;
    let body: string | Buffer | undefined;
    if (json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(json);
    } else if (raw) {
      headers['content-type'] = raw.type;
      body = raw.body;
    }
    const res = await fetch(`${runtime.baseUrl}/sign/api${path}`, { method, headers, body });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
  };
}

/** The signing token of a packet's embed URL, asked for with the sender's client. */
export async function embedToken(call: ReturnType<typeof apiClient>, packetId: string): Promise<string> {
  const res = await call('POST', `/packets/${packetId}/embed_url/`);
  expect(res.status, res.text).toBe(201);
  return new URL(res.body.url).pathname.split('/').pop() as string;
}

/** Opens a signing session for a packet through its embed URL; answers the session. */
export async function openSession(
  sign: ReturnType<typeof signerClient>,
  call: ReturnType<typeof apiClient>,
  packetId: string,
): Promise<string> {
  const opened = await sign('POST', '/session', undefined, { token: await embedToken(call, packetId) });
  expect(opened.status).toBe(201);
  return opened.body.session as string;
}
