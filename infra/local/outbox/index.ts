export type { TOutboxEmail, TOutboxMessage, TOutboxSms } from './message';
export { renderOutboxMessage, renderOutboxPage, type TOutboxPageOptions } from './page';
export { startOutboxServer, type TOutboxServer, type TOutboxServerOptions } from './server';
export { simulatedSesEvents, snsEventOf } from './ses-simulator';
export { listOutbox, readOutboxMessage } from './store';
