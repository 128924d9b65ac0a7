// A local stand-in of the parts of Stripe's API the payment adapter uses
// (shared/adapters/stripe/payment-provider.ts): create and read Checkout Sessions (`expand` of
// their PaymentIntent), create, read and confirm PaymentIntents, refund them (a succeeded intent's
// Charge carries the intent's metadata), with Idempotency-Key replay, Stripe-shaped errors, and
// signed `checkout.session.*` / `payment_intent.*` / `refund.created` + `charge.refunded` webhook
// events (the scheme of Stripe's Stripe-Signature header). A session's `url` is a page of the stand-in;
// `completeSession` plays the customer on it. Test cards: `pm_card_visa` pays,
// `pm_card_chargeDeclined` (the card 4000000000000002) is declined.
import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import qs from 'qs';

export interface TStripeStandinOptions {
  /** The secret key the stand-in accepts (Authorization: Bearer …). */
  apiKey: string;
  /** Signs the webhook events. */
  webhookSecret: string;
  /** Where events are POSTed as they happen; without it they are only kept in `events`. */
  webhookUrl?: string;
}

export interface TStandinEvent {
  payload: string;
  signature: string;
}

export interface TStripeStandin {
  host: string;
  port: number;
  /** The PaymentIntents, by id. */
  intents: Map<string, Record<string, unknown>>;
  /** The Checkout Sessions, by id. */
  sessions: Map<string, Record<string, unknown>>;
  /** The Refunds, by id. */
  refunds: Map<string, Record<string, unknown>>;
  /**
   * The status new refunds get: `succeeded` (cards) or `pending` (as bank debits' refunds start;
   * Stripe still sends `charge.refunded` at once).
   */
  refundStatus: 'succeeded' | 'pending';
  /**
   * The customer on a session's page: `paid` pays it (`payment_intent.succeeded`, then
   * `checkout.session.completed`), `declined` has the card declined (`payment_intent.payment_failed`,
   * the session stays open), `failed` completes it with a debit that then fails
   * (`checkout.session.async_payment_failed`).
   */
  completeSession(id: string, outcome: 'paid' | 'declined' | 'failed'): Promise<void>;
  /**
   * The bank refuses a refund after Stripe accepted it (a closed card, say): the refund becomes
   * `failed`, the charge is no longer refunded, and `refund.failed` is sent.
   */
  failRefund(id: string, reason?: string): Promise<void>;
  /** Every event signed so far, oldest first. */
  events: TStandinEvent[];
  /** Signs a payload as Stripe would (for forging tests: sign with another secret). */
  sign(payload: string, secret?: string, timestamp?: number): string;
  stop(): Promise<void>;
}

const DECLINED = new Set(['pm_card_chargeDeclined', 'pm_card_4000000000000002']);

export async function startStripeStandin(options: TStripeStandinOptions): Promise<TStripeStandin> {
  const intents = new Map<string, Record<string, unknown>>();
  const sessions = new Map<string, Record<string, unknown>>();
  const refunds = new Map<string, Record<string, unknown>>();
  const charges = new Map<string, Record<string, unknown>>();
  const settings = { refundStatus: 'succeeded' as 'succeeded' | 'pending' };
  const byIdempotencyKey = new Map<string, { status: number; body: unknown }>();
  const events: TStandinEvent[] = [];

  const sign = (payload: string, secret = options.webhookSecret, timestamp = Math.floor(Date.now() / 1000)) =>
    `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.${payload}`, 'utf8').digest('hex')}`;

  /** A succeeded intent's Charge: the money moved, and what a refund gives back. */
  function charge(intent: Record<string, unknown>) {
    const id = `ch_${randomBytes(12).toString('hex')}`;
    charges.set(id, {
      id,
      object: 'charge',
      amount: intent.amount,
      amount_refunded: 0,
      currency: intent.currency,
      paid: true,
      refunded: false,
      status: 'succeeded',
      payment_intent: intent.id,
      transfer_data: intent.transfer_data ?? null,
      // As Stripe does, the intent's metadata is copied onto the charge it makes.
      metadata: { ...((intent.metadata ?? {}) as Record<string, string>) },
      created: Math.floor(Date.now() / 1000),
      livemode: false,
    });
    intent.latest_charge = id;
  }

  async function refund(params: Record<string, unknown>) {
    const intent = intents.get(String(params.payment_intent ?? ''));
    if (!intent) return missing(String(params.payment_intent ?? ''));
    const ch = charges.get(String(intent.latest_charge ?? ''));
    if (intent.status !== 'succeeded' || !ch)
      return invalid(
        'payment_intent',
        `This PaymentIntent (${intent.id}) does not have a successful charge to refund.`,
        'charge_not_refundable',
      );
    if (ch.refunded)
      return invalid('charge', `Charge ${ch.id} has already been refunded.`, 'charge_already_refunded');
    const reverse = params.reverse_transfer === 'true';
    if (reverse && !ch.transfer_data)
      return invalid('reverse_transfer', 'This charge has no transfer to reverse.');
    const id = `re_${randomBytes(12).toString('hex')}`;
    const made: Record<string, unknown> = {
      id,
      object: 'refund',
      amount: ch.amount,
      currency: ch.currency,
      charge: ch.id,
      payment_intent: intent.id,
      status: settings.refundStatus,
      reason: params.reason ?? null,
      metadata: params.metadata ?? {},
      transfer_reversal: reverse ? `trr_${randomBytes(12).toString('hex')}` : null,
      created: Math.floor(Date.now() / 1000),
    };
    refunds.set(id, made);
    Object.assign(ch, {
      refunded: true,
      amount_refunded: ch.amount,
      refunds: { object: 'list', data: [made], has_more: false },
    });
    await emit('refund.created', made);
    await emit('charge.refunded', ch);
    return { status: 200, body: made };
  }

  async function failRefund(id: string, reason = 'expired_or_canceled_card') {
    const made = refunds.get(id);
    if (!made) throw new Error(`No refund ${id}`);
    Object.assign(made, { status: 'failed', failure_reason: reason });
    const ch = charges.get(String(made.charge));
    if (ch) Object.assign(ch, { refunded: false, amount_refunded: 0 });
    await emit('refund.failed', made);
  }

  async function emit(type: string, intent: Record<string, unknown>) {
    const payload = JSON.stringify({
      id: `evt_${randomBytes(12).toString('hex')}`,
      object: 'event',
      api_version: '2025-08-27.basil',
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      type,
      data: { object: intent },
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
    });
    const event = { payload, signature: sign(payload) };
    events.push(event);
    if (options.webhookUrl)
      await fetch(options.webhookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': event.signature },
        body: payload,
      }).catch(() => undefined);
  }

  const declineError = {
    type: 'card_error',
    code: 'card_declined',
    decline_code: 'generic_decline',
    message: 'Your card was declined.',
  };

  /** The session's PaymentIntent, made when the customer first pays (as Stripe does). */
  function sessionIntent(session: Record<string, unknown>): Record<string, unknown> {
    const made = intents.get(String(session.payment_intent ?? ''));
    if (made) return made;
    const data = (session.payment_intent_data ?? {}) as Record<string, unknown>;
    const id = `pi_${randomBytes(12).toString('hex')}`;
    const intent: Record<string, unknown> = {
      id,
      object: 'payment_intent',
      amount: session.amount_total,
      currency: session.currency,
      status: 'requires_payment_method',
      client_secret: `${id}_secret_${randomBytes(12).toString('hex')}`,
      payment_method_types: session.payment_method_types,
      transfer_data: data.transfer_data ?? null,
      description: data.description ?? null,
      metadata: data.metadata ?? {},
      last_payment_error: null,
      created: Math.floor(Date.now() / 1000),
      livemode: false,
    };
    intents.set(id, intent);
    session.payment_intent = id;
    return intent;
  }

  async function completeSession(id: string, outcome: 'paid' | 'declined' | 'failed') {
    const session = sessions.get(id);
    if (session?.status !== 'open') throw new Error(`No open Checkout Session ${id}.`);
    const intent = sessionIntent(session);
    if (outcome === 'declined') {
      Object.assign(intent, { status: 'requires_payment_method', last_payment_error: declineError });
      await emit('payment_intent.payment_failed', intent);
      return;
    }
    const failed = outcome === 'failed';
    Object.assign(intent, {
      status: failed ? 'requires_payment_method' : 'succeeded',
      last_payment_error: failed
        ? { ...declineError, code: 'debit_failed', message: 'The debit failed.' }
        : null,
    });
    Object.assign(session, { status: 'complete', payment_status: failed ? 'unpaid' : 'paid', url: null });
    if (failed) return emit('checkout.session.async_payment_failed', shown(session));
    charge(intent);
    await emit('payment_intent.succeeded', intent);
    await emit('checkout.session.completed', shown(session));
  }

  function createSession(params: Record<string, unknown>, base: string) {
    const items = (params.line_items ?? []) as Record<string, Record<string, unknown>>[];
    const price = (items[0]?.price_data ?? {}) as Record<string, unknown>;
    const amount = Number(price.unit_amount) * Number(items[0]?.quantity ?? 1);
    if (params.mode !== 'payment') return invalid('mode', 'Only `payment` mode is stood in.');
    if (items.length !== 1 || !Number.isInteger(amount) || amount < 1)
      return invalid(
        'line_items[0][price_data][unit_amount]',
        'This value must be greater than or equal to 1.',
      );
    if (!params.success_url) return invalid('success_url', 'Missing required param: success_url.');
    const data = (params.payment_intent_data ?? {}) as Record<string, unknown>;
    const destination = (data.transfer_data as Record<string, string> | undefined)?.destination;
    if (destination !== undefined && !/^acct_/.test(destination))
      return invalid(
        'payment_intent_data[transfer_data][destination]',
        `No such destination: '${destination}'`,
      );
    const id = `cs_test_${randomBytes(16).toString('hex')}`;
    const session: Record<string, unknown> = {
      id,
      object: 'checkout.session',
      mode: 'payment',
      status: 'open',
      payment_status: 'unpaid',
      amount_total: amount,
      currency: String(price.currency ?? '').toLowerCase(),
      line_items_requested: items,
      payment_method_types: params.payment_method_types ?? ['card'],
      payment_intent: null,
      payment_intent_data: data,
      client_reference_id: params.client_reference_id ?? null,
      metadata: params.metadata ?? {},
      success_url: params.success_url,
      cancel_url: params.cancel_url ?? null,
      url: `${base}/checkout/${id}`,
      created: Math.floor(Date.now() / 1000),
      expires_at: Math.floor(Date.now() / 1000) + 24 * 3600,
      livemode: false,
    };
    sessions.set(id, session);
    return { status: 200, body: shown(session) };
  }

  async function handle(method: string, path: string, params: Record<string, unknown>, base: string) {
    const session = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
    if (method === 'POST' && path === '/v1/checkout/sessions') return createSession(params, base);
    if (method === 'POST' && path === '/v1/refunds') return refund(params);
    if (method === 'GET' && session) {
      const found = sessions.get(session[1] ?? '');
      if (!found) return missing(session[1] ?? '', 'checkout.session');
      const expand = ([] as unknown[]).concat(params.expand ?? []);
      const intent = expand.includes('payment_intent')
        ? intents.get(String(found.payment_intent ?? ''))
        : undefined;
      const body = shown(found);
      return { status: 200, body: intent ? { ...body, payment_intent: intent } : body };
    }
    const confirm = /^\/v1\/payment_intents\/([^/]+)\/confirm$/.exec(path);
    const one = /^\/v1\/payment_intents\/([^/]+)$/.exec(path);
    if (method === 'POST' && path === '/v1/payment_intents') {
      const amount = Number(params.amount);
      if (!Number.isInteger(amount) || amount < 1)
        return invalid('amount', 'This value must be greater than or equal to 1.');
      const destination = (params.transfer_data as Record<string, string> | undefined)?.destination;
      if (destination !== undefined && !/^acct_/.test(destination))
        return invalid('transfer_data[destination]', `No such destination: '${destination}'`);
      const id = `pi_${randomBytes(12).toString('hex')}`;
      const intent: Record<string, unknown> = {
        id,
        object: 'payment_intent',
        amount,
        currency: String(params.currency ?? '').toLowerCase(),
        status: 'requires_payment_method',
        client_secret: `${id}_secret_${randomBytes(12).toString('hex')}`,
        payment_method_types: params.payment_method_types ?? ['card'],
        transfer_data: destination ? { destination } : null,
        description: params.description ?? null,
        metadata: params.metadata ?? {},
        last_payment_error: null,
        created: Math.floor(Date.now() / 1000),
        livemode: false,
      };
      intents.set(id, intent);
      return { status: 200, body: intent };
    }
    if (method === 'POST' && confirm) {
      const intent = intents.get(confirm[1] ?? '');
      if (!intent) return missing(confirm[1] ?? '');
      if (intent.status === 'succeeded')
        return invalid('', 'This PaymentIntent has already succeeded.', 'payment_intent_unexpected_state');
      const pm = String(params.payment_method ?? '');
      if (DECLINED.has(pm)) {
        const error = declineError;
        Object.assign(intent, { status: 'requires_payment_method', last_payment_error: error });
        await emit('payment_intent.payment_failed', intent);
        return { status: 402, body: { error: { ...error, payment_intent: intent } } };
      }
      Object.assign(intent, { status: 'succeeded', payment_method: pm, last_payment_error: null });
      charge(intent);
      await emit('payment_intent.succeeded', intent);
      return { status: 200, body: intent };
    }
    if (method === 'GET' && one) {
      const intent = intents.get(one[1] ?? '');
      return intent ? { status: 200, body: intent } : missing(one[1] ?? '');
    }
    return {
      status: 404,
      body: stripeError('invalid_request_error', `Unrecognized request URL (${method}: ${path}).`),
    };
  }

  /** The stand-in's own address: its Checkout pages. */
  let base = '';

  async function serve(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const send = (status: number, body: unknown) => {
      res.writeHead(status, {
        'content-type': 'application/json',
        'request-id': `req_${randomBytes(6).toString('hex')}`,
      });
      res.end(JSON.stringify(body));
    };
    if (req.headers.authorization !== `Bearer ${options.apiKey}`)
      return send(401, stripeError('invalid_request_error', 'Invalid API Key provided.'));
    const url = new URL(req.url ?? '/', 'http://stripe.local');
    const params = qs.parse(
      req.method === 'GET' ? url.search.slice(1) : Buffer.concat(chunks).toString('utf8'),
    ) as Record<string, unknown>;
    const key = req.headers['idempotency-key'];
    const replay = typeof key === 'string' ? byIdempotencyKey.get(key) : undefined;
    if (replay) return send(replay.status, replay.body);
    const answer = await handle(req.method ?? 'GET', url.pathname, params, base);
    if (typeof key === 'string' && req.method === 'POST') byIdempotencyKey.set(key, answer);
    send(answer.status, answer.body);
  }

  const server: Server = createServer((req, res) => {
    serve(req, res).catch((err: unknown) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify(stripeError('api_error', String(err))));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
  return {
    host: '127.0.0.1',
    port,
    intents,
    sessions,
    refunds,
    get refundStatus() {
      return settings.refundStatus;
    },
    set refundStatus(status) {
      settings.refundStatus = status;
    },
    completeSession,
    failRefund,
    events,
    sign,
    stop: () => new Promise((r) => server.close(() => r())),
  };
}

/** A session as Stripe shows it: without the stand-in's own record of what was asked. */
function shown(session: Record<string, unknown>): Record<string, unknown> {
  const { payment_intent_data: _, line_items_requested: __, ...body } = session;
  return body;
}

const stripeError = (type: string, message: string, extra: Record<string, unknown> = {}) => ({
  error: { type, message, ...extra },
});

const invalid = (param: string, message: string, code = 'parameter_invalid') => ({
  status: 400,
  body: stripeError('invalid_request_error', message, { code, ...(param ? { param } : {}) }),
});

const missing = (id: string, kind = 'payment_intent') => ({
  status: 404,
  body: stripeError('invalid_request_error', `No such ${kind}: '${id}'`, {
    code: 'resource_missing',
    param: kind === 'payment_intent' ? 'intent' : 'session',
  }),
});
