import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TAnswer {
  status: number;
  body: string;
}

/** node:http with a keep-alive agent, as every bench section; `path` is from the base URL. */
export function httpClient(baseUrl: string, agent: http.Agent) {
  const { hostname, port } = new URL(baseUrl);
  return (method: string, path: string, headers: Record<string, string>, payload = ''): Promise<TAnswer> =>
    new Promise((resolve, reject) => {
      const req = http.request(
        {
          agent,
          hostname,
          port,
          method,
          path,
          headers: {
            accept: 'application/json',
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(payload),
            ...headers,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
          );
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
}

/** The JSON body of an answer with the expected status, else an error naming `what`. */
export const answerOf = (what: string, a: TAnswer, status: number) => {
  if (a.status !== status) throw new Error(`${what}: HTTP ${a.status} ${a.body.slice(0, 160)}`);
  return JSON.parse(a.body) as Record<string, unknown>;
};

/** Listens on an ephemeral loopback port; `url` ends in `path`, `stop` drops open connections. */
async function listenLoopback(server: http.Server, path: string) {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A webhook call as the service sends it, with the time the receiver answered it. */
export interface TWebhookCall {
  eventId: string;
  eventType: string;
  /** `event_date`: when the state change happened. */
  eventDate: number;
  bundleId: string;
  packetId?: string;
  answeredAt: number;
}

/**
 * A loopback webhook receiver answering 200 at once and noting each call as `toArrival` shapes
 * it; bodies that are not an event are kept apart (their first characters), as a failure to report.
 */
export async function startWebhookReceiver<T>(path: string, toArrival: (call: TWebhookCall) => T) {
  const arrivals: T[] = [];
  const unreadable: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      const answeredAt = Date.now();
      const raw = Buffer.concat(chunks).toString('utf8');
      try {
        const body = JSON.parse(raw) as {
          event_id: string;
          event_type: string;
          event_date: string;
          payload: { bundle_id: string; packet_id?: string };
        };
        const eventDate = Date.parse(body.event_date);
        if (typeof body.event_id !== 'string' || !Number.isFinite(eventDate)) throw new Error('no event');
        arrivals.push(
          toArrival({
            eventId: body.event_id,
            eventType: body.event_type,
            eventDate,
            bundleId: String(body.payload?.bundle_id),
            ...(body.payload?.packet_id ? { packetId: body.payload.packet_id } : {}),
            answeredAt,
          }),
        );
      } catch {
        unreadable.push(raw.slice(0, 120));
      }
    });
  });
  const { url, stop } = await listenLoopback(server, path);
  return { url, arrivals, unreadable, stop };
}

/** The service's two HTTP faces as the bench calls them: the API with the key, the signer page's API with a session. */
export function serviceClients(baseUrl: string, apiKey: string, agent: http.Agent) {
  const request = httpClient(baseUrl, agent);
  return {
    api: (method: string, path: string, json?: unknown) =>
      request(
        method,
        `/api/v2${path}`,
        { authorization: `Token ${apiKey}` },
        json === undefined ? '' : JSON.stringify(json),
      ),
    signApi: (method: string, path: string, session: string | undefined, json: unknown) =>
      request(
        method,
        `/sign/api${path}`,
        session ? { 'x-signing-session': session } : {},
        JSON.stringify(json),
      ),
  };
}

/** A packet's embed URL, as an embedding app asks for it: the link token it carries. */
export async function embedToken(
  clients: Pick<ReturnType<typeof serviceClients>, 'api'>,
  packetId: string,
): Promise<string> {
  const embed = answerOf(
    'POST /packets/{id}/embed_url/',
    await clients.api('POST', `/packets/${packetId}/embed_url/`),
    201,
  ) as { url: string };
  return new URL(embed.url).pathname.split('/').pop()!;
}

/** A signing session for a packet, opened as an embedding app does: its embed URL's token. */
export async function embeddedSession(
  clients: ReturnType<typeof serviceClients>,
  packetId: string,
): Promise<string> {
  const token = await embedToken(clients, packetId);
  const opened = answerOf(
    'POST /sign/api/session',
    await clients.signApi('POST', '/session', undefined, { token }),
    201,
  );
  return String(opened.session);
}
