import type { TPacketRequest } from '#shared/schemas/bundle-request';
import type { TFieldError } from '../errors';
import type { TDeliverVia } from './bundle';

export interface TPacketDraft {
  key: string;
  request: TPacketRequest;
  deliverVia: TDeliverVia;
  order: number;
  path: string;
}

/**
 * Signer rules: keys unique (missing keys become `signer-N`), a delivery channel that can reach
 * the signer, a phone for SMS pin. deliver_via defaults to email when an email is given, else
 * to phone when a phone is given.
 */
export function buildPackets(requests: TPacketRequest[]): { drafts: TPacketDraft[]; errors: TFieldError[] } {
  const errors: TFieldError[] = [];
  const given = new Set(requests.map((p) => p.key).filter((k): k is string => !!k));
  const seen = new Set<string>();
  let generated = 0;
  const drafts = requests.map((p, i) => {
    const path = `packets[${i}]`;
    const at = (field: string, message: string) => errors.push({ field: `${path}.${field}`, message });
    let key = p.key;
    if (!key) {
      do key = `signer-${++generated}`;
      while (given.has(key));
    }
    if (seen.has(key)) at('key', `Another signer already has the key "${key}".`);
    seen.add(key);
    const deliverVia: TDeliverVia = p.deliver_via ?? (p.email ? 'email' : p.phone ? 'phone' : 'email');
    if (deliverVia === 'email' && !p.email) at('email', 'An email is required to deliver by email.');
    if (deliverVia === 'phone' && !p.phone) at('phone', 'A phone is required to deliver by phone.');
    if (p.auth_sms && !p.phone) at('phone', 'A phone is required for SMS pin authentication.');
    return { key, request: p, deliverVia, order: p.order ?? i + 1, path };
  });
  return { drafts, errors };
}
