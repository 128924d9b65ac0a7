// A local stand-in of the parts of Stripe's API the payment adapter uses
// (shared/adapters/stripe/payment-provider.ts): create, read and confirm PaymentIntents, with
// Idempotency-Key replay, Stripe-shaped errors, and signed `payment_intent.*` webhook events
// (the scheme of Stripe's Stripe-Signature header). Test cards: `pm_card_visa` pays,
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
  /** Every event signed so far, oldest first. */
  events: TStandinEvent[];
  /** Signs a payload as Stripe would (for forging tests: sign with another secret). */
  sign(payload: string, secret?: string, timestamp?: number): string;
  stop(): Promise<void>;
}

const DECLINED = new Set(['pm_card_chargeDeclined', 'pm_card_4000000000000002']);

export async function startStripeStandin(options: TStripeStandinOptions): Promise<TStripeStandin> {
  const intents = new Map<string, Record<string, unknown>>();
  const byIdempotencyKey = new Map<string, { status: number; body: unknown }>();
  const events: TStandinEvent[] = [];

  const sign = (payload: string, secret = options.webhookSecret, timestamp = Math.floor(Date.now() / 1000)) =>
    `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.${payload}`, 'utf8').digest('hex')}`;

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

  async function handle(method: string, path: string, params: Record<string, unknown>) {
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
        const error = {
          type: 'card_error',
          code: 'card_declined',
          decline_code: 'generic_decline',
          message: 'Your card was declined.',
        };
        Object.assign(intent, { status: 'requires_payment_method', last_payment_error: error });
        await emit('payment_intent.payment_failed', intent);
        return { status: 402, body: { error: { ...error, payment_intent: intent } } };
      }
      Object.assign(intent, { status: 'succeeded', payment_method: pm, last_payment_error: null });
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
    const params = qs.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
    const key = req.headers['idempotency-key'];
    const replay = typeof key === 'string' ? byIdempotencyKey.get(key) : undefined;
    if (replay) return send(replay.status, replay.body);
    const answer = await handle(req.method ?? 'GET', url.pathname, params);
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
  return {
    host: '127.0.0.1',
    port: (server.address() as AddressInfo).port,
    intents,
    events,
    sign,
    stop: () => new Promise((r) => server.close(() => r())),
  };
}

const stripeError = (type: string, message: string, extra: Record<string, unknown> = {}) => ({
  error: { type, message, ...extra },
});

const invalid = (param: string, message: string, code = 'parameter_invalid') => ({
  status: 400,
  body: stripeError('invalid_request_error', message, { code, ...(param ? { param } : {}) }),
});

const missing = (id: string) => ({
  status: 404,
  body: stripeError('invalid_request_error', `No such payment_intent: '${id}'`, {
    code: 'resource_missing',
    param: 'intent',
  }),
});
