import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TReceivedCall {
  path: string;
  /** Header names and values as they came on the wire, in order. */
  rawHeaders: [string, string][];
  headers: IncomingMessage['headers'];
  body: string;
  at: number;
}

/** An answer with a body of its own (a file served to file_url, say). */
export interface TReply {
  status: number;
  body: Buffer | string;
  contentType?: string;
}

/**
 * How the receiver answers a call to a path: a status, `hang` (never answers), a reply, or a
 * reply to come (held until the test resolves it).
 */
export type TBehaviour = (call: TReceivedCall, nth: number) => number | 'hang' | TReply | Promise<TReply>;

/** A webhook receiver on loopback that records every call; behaviours are set per path. */
export async function startReceiver() {
  const calls: TReceivedCall[] = [];
  const behaviours = new Map<string, TBehaviour>();
  const hanging = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0]!;
      const raw = req.rawHeaders;
      const call: TReceivedCall = {
        path,
        rawHeaders: Array.from({ length: raw.length / 2 }, (_, i) => [raw[2 * i]!, raw[2 * i + 1]!]),
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      calls.push(call);
      const nth = calls.filter((c) => c.path === path).length;
      const answer = (behaviours.get(path) ?? (() => 200))(call, nth);
      if (answer === 'hang') {
        hanging.add(res);
        return;
      }
      if (typeof answer === 'number') {
        res.writeHead(answer, { 'content-type': 'text/plain' }).end('ok');
        return;
      }
      hanging.add(res);
      void Promise.resolve(answer).then((reply) => {
        hanging.delete(res);
        res
          .writeHead(reply.status, { 'content-type': reply.contentType ?? 'application/octet-stream' })
          .end(reply.body);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    calls,
    callsTo: (path: string) => calls.filter((c) => c.path === path),
    on(path: string, behaviour: TBehaviour) {
      behaviours.set(path, behaviour);
    },
    async stop() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type TReceiver = Awaited<ReturnType<typeof startReceiver>>;

/** Polls `check` until it returns a value other than undefined/false, or fails after `timeoutMs`. */
export async function eventually<T>(
  check: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 20_000,
  what = 'the condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
