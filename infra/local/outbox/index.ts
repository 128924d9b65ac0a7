export type { TOutboxEmail, TOutboxMessage, TOutboxSms } from './message';
export { renderOutboxMessage, renderOutboxPage, type TOutboxPageOptions } from './page';
export { startOutboxServer, type TOutboxServer, type TOutboxServerOptions } from './server';
export { listOutbox, readOutboxMessage } from './store';
