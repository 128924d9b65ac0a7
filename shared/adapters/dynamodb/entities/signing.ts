// Keys and entities of what signing keeps: each signer's record beside its bundle, and the link
// and session tokens by the hash of their secret, declared once.

import type { TSigningToken } from '#shared/domain/ports/signing';
import type { TSigningRecord } from '#shared/domain/signing/signing-record';
import { defineEntity } from '../entity';
import { accountPartition } from './account-partition';

export const signingKeys = {
  /** One signer's values, authentication and steps (shared/domain/signing/signing-record.ts). */
  record: (accountId: string, bundleId: string, packetId: string) => ({
    pk: accountPartition(accountId),
    sk: `BUNDLE#${bundleId}#SIGNER#${packetId}`,
  }),
  recordPrefix: (bundleId: string) => `BUNDLE#${bundleId}#SIGNER#`,
  /** A signing link, embedded link or session, by the hash of its token (shared/domain/tokens.ts). */
  token: (hash: string) => ({ pk: `SIGNTOKEN#${hash}`, sk: 'SIGNTOKEN' }),
};

export const signingRecordEntity = defineEntity<TSigningRecord>({
  name: 'signing-record',
  version: 1,
  key: (r) => signingKeys.record(r.accountId, r.bundleId, r.packetId),
});

export const signingTokenEntity = defineEntity<TSigningToken>({
  name: 'signing-token',
  version: 1,
  key: (t) => signingKeys.token(t.hash),
});
