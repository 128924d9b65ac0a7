// Bundle payments on the signing Lambda: the billed signer starts paying
// (POST /sign/api/payment), the processor's webhook (POST /payments/stripe/webhook, public:
// its signature authenticates it) records the outcome, and locally a test checkout page
// (/payments/local/checkout/<token>) stands in for Stripe's.
import type { TPaymentProviderSource } from '#shared/adapters/payments/payment-provider';
import type { TConfig } from '#shared/config';
import { NotFoundError, ServiceUnavailableError } from '#shared/domain/errors';
import { recordPaymentEvent } from '#shared/domain/payments/record-payment';
import { startPayment } from '#shared/domain/payments/start-payment';
import type { TAccountStore } from '#shared/domain/ports/accounts';
import type { TBundleStore } from '#shared/domain/ports/bundles';
import type { TPaymentProvider } from '#shared/domain/ports/payments';
import type { TClock } from '#shared/domain/ports/system';
import type { TSignerContext } from '#shared/domain/signing/signer-context';
import { RawUpload } from '#shared/http/body';
import type { TRequest, TResponse } from '#shared/http/request';
import type { TRoute } from '#shared/http/router';
import { esc } from './html';
import { securityHeaders } from './security-headers';

export interface TPaymentRouteDeps {
  bundles: TBundleStore;
  accounts: TAccountStore;
  clock: TClock;
  config: TConfig;
  payments: TPaymentProviderSource | undefined;
  /** The session's signer (the signer API's X-Signing-Session). */
  session: (req: TRequest) => Promise<TSignerContext>;
}

export function paymentRoutes(deps: TPaymentRouteDeps): TRoute[] {
  const provider = async (): Promise<TPaymentProvider> => {
    // 503, not 409: the operator must configure it, and Stripe retries a webhook until then.
    if (!deps.payments)
      throw new ServiceUnavailableError('Payments are not configured on this service by its operator.');
    return deps.payments.get();
  };

  /** A verified webhook, recorded once; the same path for Stripe's and the local checkout's. */
  async function receive(payload: string, signature: string) {
    const event = await (await provider()).parseWebhook(payload, signature);
    if (event) await recordPaymentEvent(deps, event);
    return { received: true };
  }

  const page = (req: TRequest, status: number, title: string, body: string): TResponse => ({
    status,
    text: `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title></head>
<body><main><h1>${esc(title)}</h1>${body}</main></body></html>`,
    headers: {
      ...securityHeaders(deps.config, { https: req.url.protocol === 'https:' }),
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
    },
  });
  const routes: TRoute[] = [
    {
      method: 'POST',
      path: '/sign/api/payment',
      handler: async (req) => {
        const ctx = await deps.session(req);
        const session = await startPayment(
          { ...deps, payments: await provider() },
          ctx.bundle.accountId,
          ctx.bundle.id,
          ctx.packet.id,
        );
        return {
          status: 201,
          body: {
            reference: session.reference,
            checkout_url: session.checkoutUrl ?? null,
            client_secret: session.clientSecret ?? null,
          },
          headers: { 'Cache-Control': 'no-store' },
        };
      },
    },
    {
      method: 'POST',
      path: '/payments/stripe/webhook',
      body: { accept: ['raw'], maxBytes: 512 * 1024 },
      handler: async (req) => {
        const raw = req.body instanceof RawUpload ? req.body.raw.toString('utf8') : '';
        return { status: 200, body: await receive(raw, req.header('stripe-signature') ?? '') };
      },
    },
    {
      // Where Stripe Checkout sends the signer back (its success and cancel URLs): the signing
      // page, in the other tab, shows the payment once the webhook records it.
      method: 'GET',
      path: '/payments/stripe/done',
      handler: async (req) =>
        req.query.get('cancelled')
          ? page(
              req,
              200,
              'Payment not made',
              '<p id="cancelled">Nothing was paid. Go back to the signing page to pay.</p>',
            )
          : page(
              req,
              200,
              'Thank you',
              '<p id="done">Go back to the signing page: it shows the payment once it is received.</p>',
            ),
    },
  ];

  const local = deps.payments?.local;
  if (!local) return routes;

  const checkoutOf = async (req: TRequest) => {
    const checkout = (await local()).readCheckout(req.params.token ?? '');
    if (!checkout) throw new NotFoundError('No payment has this checkout link.');
    return checkout;
  };
  const money = (amount: number, currency: string) =>
    `${(amount / 100).toFixed(2)} ${currency.toUpperCase()}`;
  return [
    ...routes,
    {
      method: 'GET',
      path: '/payments/local/checkout/{token}',
      handler: async (req) => {
        const c = await checkoutOf(req);
        return page(
          req,
          200,
          'Test checkout',
          `<p>This is the local test checkout: no money moves.</p>
<p>${esc(c.description)}: <strong id="amount">${esc(money(c.amount, c.currency))}</strong></p>
<form method="post" action="${esc(req.params.token ?? '')}/pay"><button type="submit" name="outcome" value="paid" id="pay">Pay</button>
<button type="submit" name="outcome" value="failed" id="decline">Decline card</button></form>`,
        );
      },
    },
    {
      method: 'POST',
      path: '/payments/local/checkout/{token}/pay',
      handler: async (req) => {
        const c = await checkoutOf(req);
        const outcome =
          (req.body as { outcome?: unknown } | undefined)?.outcome === 'failed' ? 'failed' : 'paid';
        const { payload, signature } = (await local()).checkoutEvent(c, outcome);
        await receive(payload, signature);
        return outcome === 'paid'
          ? page(
              req,
              200,
              'Payment received',
              '<p id="paid">Thank you. Go back to the signing page to finish.</p>',
            )
          : page(
              req,
              402,
              'Payment declined',
              '<p id="declined">Your card was declined. Go back and try again.</p>',
            );
      },
    },
  ];
}
