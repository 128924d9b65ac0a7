// @ts-check
// The billed signer's payment, the step before finishing: Pay opens the processor's checkout in a
// new tab, and the page watches the state until the service records the payment.
import { api } from './api.js';
import { messageOf } from './chrome.js';
import { announce, el } from './dom.js';
import { lang, t } from './i18n.js';
import { ended } from './navigation.js';
import { page } from './state.js';

/** An amount in the currency's smallest unit, as the signer reads it (2500 usd: $25.00). */
function money(amount, currency) {
  try {
    const format = new Intl.NumberFormat(lang, { style: 'currency', currency: currency.toUpperCase() });
    return format.format(amount / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
  } catch {
    return `${amount} ${currency}`;
  }
}

/** @type {ReturnType<typeof setInterval> | null} */
let paymentWatch = null;

/**
 * The billed signer's payment step: Pay opens the checkout in a new tab; the page watches the
 * state until the payment is recorded (the processor tells the service, not the page).
 */
export function paymentStep() {
  const p = page.state.payment;
  const amount = money(p.amount_due, p.currency);
  const status = el(
    'p',
    { id: 'payment-status', role: 'status' },
    t(
      !p.required ? 'sign.payment.paid' : p.status === 'failed' ? 'sign.payment.failed' : 'sign.payment.due',
      {
        amount,
      },
    ),
  );
  // A refunded payment is final: nothing to pay here, the sender decides what happens next.
  if (p.status === 'refunded') status.textContent = t('sign.payment.refunded', { amount });
  const section = el(
    'div',
    { class: 'payment', id: 'payment' },
    el('h3', {}, t('sign.payment.title')),
    status,
  );
  if (!p.required || p.status === 'refunded') return section;
  const pay = el(
    'button',
    { type: 'button', class: 'btn primary', id: 'pay-button' },
    t('sign.payment.pay', { amount }),
  );
  const check = el(
    'button',
    { type: 'button', class: 'btn link', id: 'payment-check' },
    t('sign.payment.havePaid'),
  );
  pay.addEventListener('click', async () => {
    pay.disabled = true;
    try {
      const started = await api.startPayment();
      if (started.checkout_url) window.open(started.checkout_url, '_blank');
      status.textContent = t('sign.payment.newTab');
      watchPayment();
    } catch (err) {
      if (!ended(err)) status.textContent = messageOf(err);
    } finally {
      pay.disabled = false;
    }
  });
  check.addEventListener('click', () => refreshPayment());
  section.append(el('div', { class: 'finish-actions' }, pay, check));
  return section;
}

/** Reads the state again; once the payment is recorded, the step shows it and the watch stops. */
async function refreshPayment() {
  try {
    const next = await api.state();
    if (!next.payment || next.payment.status === page.state.payment?.status) return;
    page.state = { ...page.state, payment: next.payment };
    document.getElementById('payment')?.replaceWith(paymentStep());
    if (!page.state.payment.required) {
      clearInterval(paymentWatch);
      paymentWatch = null;
      announce(t('sign.payment.received'));
    }
  } catch {
    // The next check tries again.
  }
}

function watchPayment() {
  if (paymentWatch) return;
  let checks = 0;
  paymentWatch = setInterval(() => {
    if (++checks > 300) {
      clearInterval(paymentWatch);
      paymentWatch = null;
    }
    refreshPayment();
  }, 2000);
}
