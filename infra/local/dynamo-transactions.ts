// TransactWriteItems for the local DynamoDB stand-in. dynalite 4.0.0 has no transactions, and
// the service writes some records together in one (all or nothing, each conditional), so the
// same adapter code must find the real protocol locally. This file puts it in front of
// dynalite's own server: a TransactWriteItems request is answered here (carried out by
// dynamo-transact-write.ts on dynalite's store), every other request by dynalite unchanged.

import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { crc32 } from 'node:zlib';
import dynalite from 'dynalite';
import db, { type TDynaliteError, type TStore } from 'dynalite/db/index.js';
import { DYNAMODB_ERROR, error, type TRequest, transactWriteItems } from './dynamo-transact-write';

const TARGET = 'DynamoDB_20120810.TransactWriteItems';
/** dynalite's own cap on a request's body. */
const MAX_REQUEST_BYTES = 16 * 1024 * 1024;
/** How long DynamoDB answers a repeated ClientRequestToken with the first call's outcome. */
const TOKEN_TTL_MS = 10 * 60_000;

/**
 * A dynalite server that also answers TransactWriteItems; every other request is dynalite's.
 * With its store, which the table's stream (dynamo-stream.ts) reads its writes from.
 */
export function dynaliteWithTransactions(options: Parameters<typeof dynalite>[0]): {
  server: Server;
  store: TStore;
} {
  const { server, store } = withStore(() => dynalite(options));
  const handlers = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
  const dynaliteHandler = handlers[0];
  if (handlers.length !== 1 || !dynaliteHandler) {
    throw new Error(`dynalite's server has ${handlers.length} request handlers where it had one`);
  }
  server.removeAllListeners('request');
  const tokens = new RequestTokens();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (isTransactWrite(req)) void answer(store, tokens, req, res);
    else dynaliteHandler.call(server, req, res);
  });
  return { server, store };
}

/**
 * dynalite makes its store inside `dynalite()` and keeps it to itself; it makes it through its
 * db module's `create`, which is looked up at that call, so wrapping it for the call hands us
 * the very store its own handler uses.
 */
function withStore(make: () => Server): { server: Server; store: TStore } {
  const create = db.create;
  let store: TStore | undefined;
  db.create = (options) => {
    store = create(options);
    return store;
  };
  let server: Server;
  try {
    server = make();
  } finally {
    db.create = create;
  }
  if (!store) throw new Error('dynalite made its store without db.create: TransactWriteItems needs it');
  return { server, store };
}

/** Only well-formed JSON requests: anything else goes to dynalite, which answers as DynamoDB does. */
function isTransactWrite(req: IncomingMessage): boolean {
  const contentType = (req.headers['content-type'] ?? '').split(';')[0]?.trim();
  return (
    req.method === 'POST' &&
    req.headers['x-amz-target'] === TARGET &&
    (contentType === 'application/x-amz-json-1.0' || contentType === 'application/json')
  );
}

async function answer(store: TStore, tokens: RequestTokens, req: IncomingMessage, res: ServerResponse) {
  const contentType = (req.headers['content-type'] ?? '').split(';')[0]?.trim() ?? '';
  res.setHeader('x-amzn-RequestId', randomBytes(39).toString('base64').toUpperCase().replace(/[+/]/g, '0'));
  let status = 200;
  let out: object;
  try {
    const body = await readBody(req);
    if (body === undefined) {
      res.statusCode = 413;
      res.end();
      return;
    }
    out = await tokens.once(store, parseRequest(req, body));
  } catch (err) {
    const known = err as TDynaliteError;
    status = known.statusCode ?? 500;
    out = known.body ?? { __type: `${DYNAMODB_ERROR}InternalServerError`, message: String(known.message) };
  }
  const text = JSON.stringify(out);
  res.statusCode = status;
  res.setHeader('x-amz-crc32', crc32(text));
  res.setHeader('Content-Type', contentType);
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}

/** The body, or undefined when it is larger than dynalite accepts. */
function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_REQUEST_BYTES) {
        req.removeAllListeners('data');
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString()));
    req.on('error', reject);
    // A caller gone before the end: nothing to answer (ignored once the body was read).
    req.on('close', () => reject(new Error('the request closed before its end')));
  });
}

function parseRequest(req: IncomingMessage, body: string): TRequest {
  const signed =
    req.headers.authorization !== undefined ||
    new URL(req.url ?? '/', 'http://localhost').searchParams.has('X-Amz-Algorithm');
  if (!signed) {
    throw error(
      400,
      'com.amazon.coral.service#MissingAuthenticationTokenException',
      'Request is missing Authentication Token',
    );
  }
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as TRequest;
  } catch {
    // answered below, as dynalite answers a body that is not JSON
  }
  throw error(400, 'com.amazon.coral.service#SerializationException', '');
}

/**
 * DynamoDB answers a repeated ClientRequestToken (the SDK sends one with every call and again
 * with each retry) with the first success's outcome for 10 minutes, without writing again: a
 * retry of a transaction that was applied but whose answer was lost must not fail its own
 * conditions. Remembered in memory, as long as the stand-in runs.
 */
class RequestTokens {
  private readonly done = new Map<string, { digest: string; until: number }>();
  private readonly running = new Set<string>();

  async once(store: TStore, request: TRequest): Promise<object> {
    const token = request.ClientRequestToken;
    if (token === undefined || token === null) return transactWriteItems(store, request);
    if (typeof token !== 'string' || token.length < 1 || token.length > 36) {
      throw db.validationError(
        "1 validation error detected: Value at 'clientRequestToken' failed to satisfy constraint: " +
          'Member must have length between 1 and 36',
      );
    }
    const digest = createHash('sha256').update(JSON.stringify(request.TransactItems)).digest('hex');
    const now = Date.now();
    // Kept in the order they expire (one lifetime for all), so the expired ones are the first.
    for (const [seen, { until }] of this.done) {
      if (until > now) break;
      this.done.delete(seen);
    }
    const earlier = this.done.get(token);
    if (earlier) {
      if (earlier.digest !== digest) {
        throw error(
          400,
          `${DYNAMODB_ERROR}IdempotentParameterMismatchException`,
          'The request uses the same client token as a previous, but non-identical request.',
        );
      }
      return {};
    }
    if (this.running.has(token)) {
      throw error(
        400,
        `${DYNAMODB_ERROR}TransactionInProgressException`,
        'The transaction with the given request token is already in progress.',
      );
    }
    this.running.add(token);
    try {
      const out = await transactWriteItems(store, request);
      this.done.set(token, { digest, until: Date.now() + TOKEN_TTL_MS });
      return out;
    } finally {
      this.running.delete(token);
    }
  }
}
