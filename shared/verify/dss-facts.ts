// What a file's DSS (Document Security Store, ISO 32000-2 §12.8.4.3) holds, for the report: its
// certificates, OCSP responses and CRLs as facts, and which signature each VRI entry belongs to
// (its key is the SHA-1 of that signature's /Contents; writers differ on whether the zero
// padding of the reserved space counts, so both are tried).
import 'reflect-metadata';
import { createHash } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import * as asn1js from 'asn1js';
import { certOf, factsOf } from './certificates';
import type { TDssEntries, TSignatureDict } from './pdf-signatures';
import type { TDssFacts } from './report';
import { basicResponseOf } from './revocation';

export function dssFacts(dss: TDssEntries, signatures: TSignatureDict[]): TDssFacts {
  const vriOf = (s: TSignatureDict) => {
    const padded = createHash('sha1').update(s.contents).digest('hex').toUpperCase();
    const parsed = asn1js.fromBER(new Uint8Array(s.contents));
    const der = s.contents.subarray(0, parsed.offset === -1 ? s.contents.length : parsed.offset);
    return [padded, createHash('sha1').update(der).digest('hex').toUpperCase()];
  };
  const keys = signatures.map(vriOf);
  return {
    certs: dss.certs.map((d) => certOf(d)).flatMap((c) => (c ? [factsOf(c)] : [])),
    ocsps: dss.ocsps.map((d) => {
      const basic = basicResponseOf(d);
      return { producedAt: basic?.tbsResponseData.producedAt.toISOString() ?? null, responder: null };
    }),
    crls: dss.crls.map((d) => crlFacts(d)),
    vri: dss.vriKeys.map((key) => {
      const at = keys.findIndex((k) => k.includes(key));
      return { key, signature: at >= 0 ? at + 1 : null };
    }),
  };
}

function crlFacts(der: Buffer): TDssFacts['crls'][number] {
  try {
    const crl = new x509.X509Crl(new Uint8Array(der));
    return { issuer: crl.issuer, thisUpdate: crl.thisUpdate.toISOString(), entries: crl.entries.length };
  } catch {
    return { issuer: 'unreadable CRL', thisUpdate: null, entries: 0 };
  }
}
