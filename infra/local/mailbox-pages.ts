import type { IncomingMessage, ServerResponse } from 'node:http';
import { classifyAddress } from '#shared/adapters/fetch/ip-ranges';
import { listMailbox, readMailboxMessage, renderMailboxMessage, renderMailboxPage } from './mailbox';

// The pages are built from what strangers typed into emails: no script may run on them.
const HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-src 'self'",
};

const ONLY_HERE =
  '<!doctype html><title>Mailbox</title><p>The mailbox is shown only on the machine running the ' +
  'service: open <code>/dev/mailbox</code> there, at <code>http://127.0.0.1:&lt;port&gt;</code>.</p>';

/**
 * The pages show every message "sent", signing links included, so they are the mailbox stand-in's
 * and stay as local as it is: when the service port is open to a network (`--host 0.0.0.0`),
 * only callers on this machine see them.
 */
const fromThisMachine = (req: IncomingMessage) =>
  classifyAddress(req.socket.remoteAddress ?? '') === 'loopback';

/**
 * `/dev/mailbox` lists every email and SMS the service "sent"; `/dev/mailbox/<id>` shows one;
 * `/dev/mailbox.json` gives the list as JSON, newest first, for scripts (`npm run demo`).
 */
export function mailboxPages(dir: string) {
  return async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> => {
    if (req.method !== 'GET') return false;
    const path = url.pathname.replace(/\/+$/, '');
    if (path === '/dev/mailbox.json') {
      if (!fromThisMachine(req)) {
        res.writeHead(403, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ message: 'The mailbox is shown only on the machine running the service.' }));
        return true;
      }
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(JSON.stringify(await listMailbox(dir)));
      return true;
    }
    const m = /^\/dev\/mailbox(?:\/([^/]+))?$/.exec(path);
    if (!m) return false;
    if (!fromThisMachine(req)) {
      res.writeHead(403, HEADERS);
      res.end(ONLY_HERE);
      return true;
    }
    if (m[1] === undefined) {
      res.writeHead(200, HEADERS);
      res.end(renderMailboxPage(await listMailbox(dir)));
      return true;
    }
    let id: string;
    try {
      id = decodeURIComponent(m[1]);
    } catch {
      return false;
    }
    const message = await readMailboxMessage(dir, id);
    if (!message) return false;
    res.writeHead(200, HEADERS);
    res.end(renderMailboxMessage(message));
    return true;
  };
}
