import type { TDeliverVia } from './bundle';

/**
 * Signers who sign where the sender is: in the sender's app (`embed`) or in person on the sender's
 * device (`kiosk`). The service sends them no signing request or reminder; their turn makes them
 * `re` and the sender opens their session with a link of its own (embed_url, kiosk_url).
 */
export const signsWithSender = (via: TDeliverVia) => via === 'embed' || via === 'kiosk';
