import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { ConflictError, said, ThrottledError, ValidationError } from '../errors';
import { toE164 } from '../notifications/notification';
import type { TSmsSender } from '../ports/notifications';
import { saveStep, type TSignerCall, type TSignerContext, whileSigning } from './signer-context';

export const SMS_CODE_TTL_MS = 10 * 60_000;
export const SMS_MAX_WRONG = 5;
/** At most this many codes in SMS_WINDOW_MS, and one per SMS_GAP_MS. */
export const SMS_MAX_SENDS = 3;
export const SMS_WINDOW_MS = 15 * 60_000;
export const SMS_GAP_MS = 30_000;

// The code is hashed with the packet id, so a table dump shows no code and equal codes of two
// signers look different; six digits need no more (five tries, then a new code).
const hashCode = (packetId: string, code: string) =>
  createHash('sha256').update(`${packetId}:${code}`).digest('hex');

function assertSmsStep(ctx: TSignerContext) {
  if (!ctx.packet.authSms) throw new ConflictError('This signer has no SMS code check.');
  if (!ctx.packet.phone || !toE164(ctx.packet.phone)) {
    throw new ConflictError('No phone number that can take texts is on file for this signer.');
  }
}

/**
 * Texts a new 6-digit code to the signer's phone. Sends are limited (SMS_MAX_SENDS in
 * SMS_WINDOW_MS, one per SMS_GAP_MS): each costs money and could be used to flood a phone. The
 * code is written before it is sent, so a code that arrives is always one that verifies.
 */
export async function sendSmsCode(call: TSignerCall<{ sms: TSmsSender }>): Promise<TSignerContext> {
  const { deps } = call;
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const done = await whileSigning(call, async (ctx) => {
    assertSmsStep(ctx);
    if (ctx.record.auth.sms?.passedAt) return ctx;
    const now = deps.clock.now();
    const recent = (ctx.record.auth.sms?.sentAt ?? []).filter(
      (t) => now.getTime() - Date.parse(t) < SMS_WINDOW_MS,
    );
    const last = recent.at(-1);
    if (last && now.getTime() - Date.parse(last) < SMS_GAP_MS) {
      throw said(
        new ThrottledError(
          Math.ceil((SMS_GAP_MS - (now.getTime() - Date.parse(last))) / 1000),
          'Wait a little before asking for another code.',
        ),
        'errors.smsWait',
      );
    }
    if (recent.length >= SMS_MAX_SENDS) {
      const wait = SMS_WINDOW_MS - (now.getTime() - Date.parse(recent[0]!));
      throw said(
        new ThrottledError(Math.ceil(wait / 1000), 'Too many codes were sent; try again later.'),
        'errors.smsTooMany',
      );
    }
    const at = now.toISOString();
    const sms = {
      phone: ctx.packet.phone!,
      codeHash: hashCode(ctx.packet.id, code),
      codeExpires: new Date(now.getTime() + SMS_CODE_TTL_MS).toISOString(),
      wrongAttempts: 0,
      sentAt: [...recent, at],
    };
    const saved = await saveStep(call, ctx, { auth: { ...ctx.record.auth, sms } }, 'sms code sent', at);
    return { ...saved, send: true as const };
  });
  if ('send' in done) {
    await deps.sms.send(
      toE164(done.packet.phone!)!,
      `${code} is your signing code for "${done.bundle.label}". It expires in 10 minutes.`,
    );
  }
  return done;
}

/** Checks a code; after SMS_MAX_WRONG wrong ones the code is void and a new one must be sent. */
export async function verifySmsCode(call: TSignerCall, body: unknown): Promise<TSignerContext> {
  const { deps } = call;
  const code = typeof body === 'object' && body !== null ? (body as { code?: unknown }).code : undefined;
  if (typeof code !== 'string' || !/^\d{6}$/.test(code.trim())) {
    throw said(
      new ValidationError('Enter the 6-digit code.', [
        { field: 'code', message: 'Six digits are expected.', said: { key: 'sign.auth.codeDigits' } },
      ]),
      'errors.smsCodeDigits',
    );
  }
  let wrong = false;
  const ctx = await whileSigning(call, async (ctx) => {
    assertSmsStep(ctx);
    const sms = ctx.record.auth.sms;
    if (sms?.passedAt) return ctx;
    const now = deps.clock.now();
    const at = now.toISOString();
    if (!sms?.codeHash || !sms.codeExpires || Date.parse(sms.codeExpires) <= now.getTime()) {
      throw said(
        new ValidationError('The code has expired or was used up; ask for a new one.', [
          { field: 'code', message: 'Ask for a new code.', said: { key: 'errors.smsAskNew' } },
        ]),
        'errors.smsCodeExpired',
      );
    }
    const given = Buffer.from(hashCode(ctx.packet.id, code.trim()), 'hex');
    const matches = timingSafeEqual(given, Buffer.from(sms.codeHash, 'hex'));
    const wrongAttempts = matches ? sms.wrongAttempts : sms.wrongAttempts + 1;
    const next = matches
      ? { ...sms, codeHash: undefined, codeExpires: undefined, passedAt: at }
      : wrongAttempts >= SMS_MAX_WRONG
        ? { ...sms, wrongAttempts, codeHash: undefined, codeExpires: undefined }
        : { ...sms, wrongAttempts };
    const action = matches ? 'sms code passed' : 'sms code wrong';
    const saved = await saveStep(call, ctx, { auth: { ...ctx.record.auth, sms: next } }, action, at);
    wrong = !matches;
    return saved;
  });
  if (wrong) {
    const left = SMS_MAX_WRONG - (ctx.record.auth.sms?.wrongAttempts ?? 0);
    throw said(
      new ValidationError('The code is not right.', [
        {
          field: 'code',
          message: left > 0 ? `Wrong code; ${left} tries left.` : 'Wrong code; ask for a new one.',
          said:
            left > 0 ? { key: 'errors.smsTriesLeft', values: { count: left } } : { key: 'errors.smsAskNew' },
        },
      ]),
      'errors.smsCodeWrong',
    );
  }
  return ctx;
}
