import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ActionContext, actions, READ_ONLY_ACTIONS, SAVED_LATER_ACTIONS } from './actions';
import { errors, renderError, SqsError } from './errors';
import { asInput } from './input';
import { loadSnapshot, Persistence } from './persistence';
import { Registry } from './registry';

export interface LocalSqsOptions {
  /** 0 (the default) picks any free port. */
  port?: number;
  /** Interface to listen on; defaults to 127.0.0.1. */
  host?: string;
  /**
   * When set, queues and messages are loaded from and saved to this JSON file; a change is
   * answered only once it is on disk (written and fsynced), except receives (saved a moment later).
   */
  dataFile?: string;
}

export interface LocalSqs {
  /** Pass as `endpoint` to `SQSClient`. */
  endpoint: string;
  port: number;
  /** Where it listens, as the OS reports it. */
  bound: AddressInfo;
  /** Ends waiting long polls, closes the server and writes pending state. Safe to call twice. */
  stop(): Promise<void>;
}

const TARGET_PREFIX = 'AmazonSQS.';
const CONTENT_TYPE = 'application/x-amz-json-1.0';
// Far above SQS's 1 MiB payload limit; only here so a runaway client cannot exhaust memory.
const MAX_REQUEST_BYTES = 4 * 1024 * 1024;
const DEFAULT_REGION = 'us-east-1';
const CREDENTIAL_SCOPE = /Credential=([^/,\s]+)\/\d{8}\/([^/,\s]+)\//;

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_REQUEST_BYTES) throw errors.invalidParameterValue('Request body is too large.');
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Signatures are not verified, but the SigV4 scope still tells us the caller's region and access key. */
function callerFrom(request: IncomingMessage): { region: string; senderId: string } {
  const match = CREDENTIAL_SCOPE.exec(request.headers.authorization ?? '');
  return { senderId: match?.[1] ?? 'AIDAAAAAAAAAAAAAAAAAA', region: match?.[2] ?? DEFAULT_REGION };
}

function send(
  response: ServerResponse,
  status: number,
  headers: Record<string, string>,
  body: string,
): Promise<void> {
  return new Promise((resolve) => {
    if (response.destroyed) return resolve();
    response.writeHead(status, {
      'content-type': CONTENT_TYPE,
      'content-length': Buffer.byteLength(body),
      'x-amzn-requestid': randomUUID(),
      ...headers,
    });
    response.end(body, () => resolve());
    // 'finish' never fires if the client went away mid-write.
    response.once('close', () => resolve());
  });
}

const urlHostFor = (host: string): string => {
  // A wildcard bind address is not something a client can connect to.
  if (host === '0.0.0.0' || host === '::' || host === '') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
};

export async function startLocalSqs(options: LocalSqsOptions = {}): Promise<LocalSqs> {
  const host = options.host ?? '127.0.0.1';
  const registry = Registry.restore(options.dataFile ? await loadSnapshot(options.dataFile) : undefined);
  const persistence = options.dataFile
    ? new Persistence(options.dataFile, () => registry.snapshot())
    : undefined;
  const stopping = new AbortController();
  const pending = new Set<Promise<void>>();
  let baseUrl = '';

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    // Aborting on 'close' makes a long poll give up when its client disconnects instead of hiding
    // messages from everyone for a whole visibility timeout on behalf of nobody.
    const gone = new AbortController();
    response.once('close', () => gone.abort());
    try {
      if (request.method === 'GET') {
        // Readiness probe for the local runtime; SDK traffic is always POST.
        await send(response, 200, {}, JSON.stringify({ status: 'ok' }));
        return;
      }
      if (request.method !== 'POST') throw errors.invalidAction(request.method ?? 'unknown');
      const target = request.headers['x-amz-target'];
      const actionName =
        typeof target === 'string' && target.startsWith(TARGET_PREFIX)
          ? target.slice(TARGET_PREFIX.length)
          : '';
      const body = await readBody(request);
      const action = Object.hasOwn(actions, actionName) ? actions[actionName] : undefined;
      if (!action) throw errors.invalidAction(actionName || String(target ?? 'missing X-Amz-Target'));
      let parsed: unknown;
      try {
        parsed = body.trim() === '' ? {} : JSON.parse(body);
      } catch {
        throw errors.serialization('The request body is not valid JSON.');
      }
      const context: ActionContext = {
        registry,
        baseUrl,
        ...callerFrom(request),
        signal: AbortSignal.any([stopping.signal, gone.signal]),
      };
      const output = await action(asInput(parsed), context);
      if (SAVED_LATER_ACTIONS.has(actionName)) persistence?.schedule();
      else if (!READ_ONLY_ACTIONS.has(actionName)) await persistence?.commit();
      await send(response, 200, {}, JSON.stringify(output));
    } catch (error) {
      const sqsError =
        error instanceof SqsError
          ? error
          : new SqsError('InternalFailure', 'InternalFailure', String(error), 500, 'Receiver');
      const rendered = renderError(sqsError);
      await send(response, rendered.status, rendered.headers, rendered.body);
    }
  }

  const server = createServer((request, response) => {
    const done: Promise<void> = handle(request, response).finally(() => pending.delete(done));
    pending.add(done);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = server.address() as AddressInfo;
  const { port } = bound;
  baseUrl = `http://${urlHostFor(host)}:${port}`;

  let stopped: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopped ??= (async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      stopping.abort();
      // Waiting long polls answer (empty) as soon as the abort reaches them; let those answers go out
      // before the sockets are torn down.
      await Promise.allSettled([...pending]);
      server.closeAllConnections();
      await closed;
      await persistence?.flush();
    })();
    return stopped;
  };

  return { endpoint: baseUrl, port, bound, stop };
}
