import { normalizeEmail, normalizePhone } from '../ports/contact-keys';
export type TChannelKind = 'em' | 'mp';

export interface TChannel {
  id: string;
  kind: TChannelKind;
  email?: string;
  phone?: string;
}

export interface TPerson {
  id: string;
  accountId: string;
  name: string;
  metadata: Record<string, unknown>;
  isUser: boolean;
  channels: TChannel[];
  created: string;
  updated: string;
  version: number;
}

export interface TPersonFilter {
  search?: string;
  email?: string;
  phone?: string;
}

/** The value that identifies a channel for "does this person already have it". */
export function channelIdentity(c: { email?: string; phone?: string }): string {
  return c.email ? `em:${normalizeEmail(c.email)}` : `mp:${normalizePhone(c.phone ?? '')}`;
}
