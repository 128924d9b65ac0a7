// The details the evidence writes when it is made (not stored): what each authentication step
// kept (the masked phone and the codes sent, the selfie's images, the identity check's reference,
// the in-person host and device), and the label of each mark. Each is built once, here, as a
// catalog message with its values (`evidence.details.*`): the certificate says it in its
// signer's language, and the evidence record keeps its English, said from the `en` catalog
// (word for word what these details have always been: the record's readers compare it).
import type { TSaid, TWords } from '#shared/pdf/evidence-types';
import { evidenceWords } from '#shared/pdf/evidence-words';
import type { TField } from '../bundles/bundle';
import { deviceLabel, hostLabel, type TInPerson } from '../signing/in-person';
import type { TSigningRecord } from '../signing/signing-record';

const said = (key: string, values?: TSaid['values']): TSaid => ({
  key: `details.${key}`,
  ...(values ? { values } : {}),
});

let english: ReturnType<typeof evidenceWords> | undefined;

/** A detail as the evidence record keeps it: in English (the catalog read when first asked for). */
export function inEnglish(words: TWords): string {
  english ??= evidenceWords('en');
  return english.say(words);
}

/** `+1 415 555 0142` as `+• ••• ••• 0142`: only the last four digits shown. */
const mask = (phone: string) => phone.replace(/\d(?=(?:\D*\d){4})/g, '•');

type TAuth = TSigningRecord['auth'];

/** `code sent to ••••1234; 2 sent, 0 wrong`. */
export const smsDetail = (sms: NonNullable<TAuth['sms']>): TSaid =>
  said('smsCode', {
    phone: mask(sms.phone),
    sent: said('codesSent', { count: sms.sentAt.length }),
    wrong: said('wrongCodes', { count: sms.wrongAttempts }),
  });

/** `1 image(s) kept as evidence; from 203.0.113.24`. */
export const selfieDetail = (selfie: NonNullable<TAuth['selfie']>): TSaid =>
  said('selfie', { images: said('images', { count: selfie.blobKeys.length }), ip: selfie.ip });

/** `<provider> reference <ref>; from <ip>`, once the provider answered. */
export const idDetail = (id: NonNullable<TAuth['id']>): TSaid | undefined =>
  id.result
    ? said('idDocument', { provider: id.result.provider, reference: id.result.reference, ip: id.ip })
    : undefined;

/** `hosted by Jane Host (jane@…); device "Front desk tablet"; from …; link made with API key … of user …`. */
export const inPersonDetail = (p: TInPerson): TSaid =>
  said(p.userId ? 'inPersonOfUser' : 'inPerson', {
    host: hostLabel(p),
    device: deviceLabel(p).slice(0, 200),
    ip: p.ip,
    keyId: p.keyId,
    ...(p.userId ? { userId: p.userId } : {}),
  });

/** A mark on the certificate: `contract.pdf: Buyer (buyer_sig)`, or the kind's word when the field has no label. */
export const markLabel = (document: string, field: Pick<TField, 'key' | 'label' | 'kind'>): TSaid =>
  said('mark', {
    document,
    field: field.label || said(field.kind === 'ini' ? 'initials' : 'signature'),
    key: field.key,
  });
