// One HTTP server standing in for both SESv2 and SNS, so the production adapters run locally
// against it unchanged and every message lands in a folder a person can browse.
import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TMailboxMessage } from './message';
import {
  parseSendEmail,
  SES_PATH_PREFIX,
  SES_SEND_EMAIL_PATH,
  sesFaultReply,
  sesSendEmailReply,
} from './ses-send-email';
import { simulatedSesEvents } from './ses-simulator';
import { parsePublish, snsFaultReply, snsPublishReply } from './sns-publish';
import { newMailboxId, writeMailboxMessage } from './store';
import type { TWireFault, TWireReply } from './wire';

export interface TMailboxServerOptions {
  /** 0 (the default) picks any free port. */
  port?: number;
  /** Defaults to 127.0.0.1: the stand-in checks no signatures, so it should not face a network. */
  host?: string;
  dir: string;
  /** Called after a message is stored, e.g. to log where its page is. */
  onMessage?: (message: TMailboxMessage) => void;
  /**
   * Receives what SES would publish to a configuration set's SNS destination (a JSON text) for
   * emails to its simulator addresses (bounce@simulator.amazonses.com, complaint@…): shortly
   * after the send, and again with growing pauses while it fails, as SNS retries a Lambda.
   */
  onSesEvent?: (notification: string) => Promise<void>;
}

export interface TMailboxServer {
  /** Give this to the SESv2 and SNS clients as `endpoint`. */
  endpoint: string;
  port: number;
  /** Where it listens, as the OS reports it. */
  bound: AddressInfo;
  stop(): Promise<void>;
}

// Far above any real email or SMS; only guards the process against a runaway client.
const MAX_BODY_BYTES = 10 * 1024 * 1024;
// Simulated SES reports: the first a moment after the send (SES reports after answering), then
// retried after 0.4, 0.8, 1.6 and 3.2 s while the receiver fails.
const SES_EVENT_DELAY_MS = 200;
const SES_EVENT_ATTEMPTS = 5;

export async function startMailboxServer(opts: TMailboxServerOptions): Promise<TMailboxServer> {
  const host = opts.host ?? '127.0.0.1';
  await mkdir(opts.dir, { recursive: true });
  let sequence = 0;
  let stopped = false;
  const pending = new Set<NodeJS.Timeout>();

  const publishSesEvent = (notification: string, attempt = 1): void => {
    const onSesEvent = opts.onSesEvent;
    if (!onSesEvent || stopped || attempt > SES_EVENT_ATTEMPTS) return;
    const timer = setTimeout(
      () => {
        pending.delete(timer);
        onSesEvent(notification).catch(() => publishSesEvent(notification, attempt + 1));
      },
      SES_EVENT_DELAY_MS * 2 ** (attempt - 1),
    );
    pending.add(timer);
  };

  const accept = async (message: TMailboxMessage): Promise<void> => {
    await writeMailboxMessage(opts.dir, message);
    opts.onMessage?.(message);
  };

  const handle = async (req: IncomingMessage): Promise<TWireReply> => {
    const requestId = randomUUID();
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const contentType = req.headers['content-type'] ?? '';

    if (path.startsWith(SES_PATH_PREFIX)) {
      if (req.method !== 'POST' || path !== SES_SEND_EMAIL_PATH) {
        return sesFaultReply(unsupported(`SESv2 ${req.method} ${path}`), requestId);
      }
      const body = await readBody(req);
      if (body === undefined) return sesFaultReply(tooLarge(), requestId);
      const time = new Date();
      const parsed = parseSendEmail(body, newMailboxId(time, ++sequence), time);
      if (!parsed.ok) return sesFaultReply(parsed.fault, requestId);
      await accept(parsed.value);
      for (const notification of simulatedSesEvents(parsed.value)) publishSesEvent(notification);
      return sesSendEmailReply(parsed.value.id, requestId);
    }

    if (
      req.method === 'POST' &&
      path === '/' &&
      contentType.startsWith('application/x-www-form-urlencoded')
    ) {
      const body = await readBody(req);
      if (body === undefined) return snsFaultReply(tooLarge(), requestId);
      const time = new Date();
      const parsed = parsePublish(new URLSearchParams(body), newMailboxId(time, ++sequence), time);
      if (!parsed.ok) return snsFaultReply(parsed.fault, requestId);
      await accept(parsed.value);
      return snsPublishReply(parsed.value.id, requestId);
    }

    // Neither service's shape: answer in REST-JSON, which every modern AWS SDK can at least decode.
    return sesFaultReply(
      { status: 404, code: 'UnknownOperationException', message: `No stand-in for ${req.method} ${path}` },
      requestId,
    );
  };

  const server = createServer((req, res) => {
    handle(req).then(
      (reply) => send(res, reply),
      (err: unknown) => {
        const f: TWireFault = {
          status: 500,
          code: 'InternalFailure',
          message: `Local mailbox failed: ${err instanceof Error ? err.message : String(err)}`,
        };
        const isSes = (req.url ?? '').startsWith(SES_PATH_PREFIX);
        send(res, isSes ? sesFaultReply(f, randomUUID()) : snsFaultReply(f, randomUUID()));
      },
    );
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = server.address() as AddressInfo;

  return {
    endpoint: `http://${connectableHost(host)}:${bound.port}`,
    port: bound.port,
    bound,
    stop: () =>
      new Promise<void>((resolve, reject) => {
        stopped = true;
        for (const timer of pending) clearTimeout(timer);
        pending.clear();
        server.close((err) => (err ? reject(err) : resolve()));
        // SDK clients keep connections alive; without this close() waits for them to time out.
        server.closeAllConnections();
      }),
  };
}

function unsupported(what: string): TWireFault {
  return { status: 400, code: 'BadRequestException', message: `The local mailbox does not support ${what}` };
}

function tooLarge(): TWireFault {
  return { status: 413, code: 'BadRequestException', message: 'Request body too large' };
}

/** The body as UTF-8, or undefined once it exceeds the limit. */
async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(buf);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function send(res: ServerResponse, reply: TWireReply): void {
  res.writeHead(reply.status, { ...reply.headers, 'content-length': Buffer.byteLength(reply.body) });
  res.end(reply.body);
}

/** A wildcard bind address is not something a client can dial. */
function connectableHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}
