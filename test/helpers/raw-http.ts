// One request sent byte for byte as given, through node:http: fetch would resolve dot segments in
// the path, refuse a Host header and pick its own source address, which some tests set on purpose.
import { request } from 'node:http';

export interface TRawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

export interface TRawRequest {
  method?: string;
  /** Sent as is, dot segments and escapes included. */
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** The loopback address to send from (127.0.0.x), which the gateway sees as the client's. */
  localAddress?: string;
}

/** Sends `r` to the server at `baseUrl` (its host and port only) and reads the whole answer. */
export function rawRequest(baseUrl: string, r: TRawRequest): Promise<TRawAnswer> {
  const base = new URL(baseUrl);
  const headers: Record<string, string | number> = { ...r.headers };
  if (r.body !== undefined) headers['content-length'] = Buffer.byteLength(r.body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: base.hostname,
        port: base.port,
        method: r.method ?? 'GET',
        path: r.path,
        headers,
        agent: false,
        ...(r.localAddress ? { localAddress: r.localAddress } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString(),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(r.body);
  });
}
