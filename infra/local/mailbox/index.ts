export type { TMailboxEmail, TMailboxMessage, TMailboxSms } from './message';
export { renderMailboxMessage, renderMailboxPage, type TMailboxPageOptions } from './page';
export { startMailboxServer, type TMailboxServer, type TMailboxServerOptions } from './server';
export { simulatedSesEvents, snsEventOf } from './ses-simulator';
export { listMailbox, readMailboxMessage } from './store';
