import type { IncomingMessage, ServerResponse } from 'node:http';
import { listOutbox, readOutboxMessage, renderOutboxMessage, renderOutboxPage } from './outbox';

// The pages are built from what strangers typed into emails: no script may run on them.
const HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-src 'self'",
};

/** `/dev/outbox` lists every email and SMS the service "sent"; `/dev/outbox/<id>` shows one. */
export function outboxPages(dir: string) {
  return async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> => {
    if (req.method !== 'GET') return false;
    const path = url.pathname.replace(/\/+$/, '');
    if (path === '/dev/outbox') {
      res.writeHead(200, HEADERS);
      res.end(renderOutboxPage(await listOutbox(dir)));
      return true;
    }
    const m = /^\/dev\/outbox\/([^/]+)$/.exec(path);
    if (!m) return false;
    let id: string;
    try {
      id = decodeURIComponent(m[1]!);
    } catch {
      return false;
    }
    const message = await readOutboxMessage(dir, id);
    if (!message) return false;
    res.writeHead(200, HEADERS);
    res.end(renderOutboxMessage(message));
    return true;
  };
}
