// The local pages outside the API: the home page, the console and the mailbox of sent messages.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { consolePages } from '#functions/console-app/serve';
import type { TConfig } from '#shared/config';
import { homePages } from './home-page';
import { mailboxPages } from './mailbox-pages';

type TPages = (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<boolean>;

/** The local pages outside the API, tried in turn until one answers. */
const firstOf =
  (...pages: TPages[]): TPages =>
  async (req, res, url) => {
    for (const p of pages) if (await p(req, res, url)) return true;
    return false;
  };

/** `apiUrl` is asked per request: the service's URL is known only once its port is. */
export function localPages(apiUrl: () => string, mailboxDir: string, config: TConfig): TPages {
  return firstOf(homePages(apiUrl), consolePages(config), mailboxPages(mailboxDir));
}
