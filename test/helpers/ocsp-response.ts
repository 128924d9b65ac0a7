// An RFC 6960 OCSP response about one certificate, signed by the given key (its issuer's, or a
// forger's), for tests of revocation data a DSS carries. pkijs writes it.
import type { webcrypto } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import '#shared/verify/crypto-engine';

const pk = (der: ArrayBuffer) =>
  new pkijs.Certificate({ schema: asn1js.fromBER(new Uint8Array(der)).result });

export async function anOcspResponse(opts: {
  cert: ArrayBuffer;
  issuer: ArrayBuffer;
  signingKey: webcrypto.CryptoKey;
  status: 'good' | { revokedAt: Date } | 'unknown';
}): Promise<Buffer> {
  const issuer = pk(opts.issuer);
  const certID = new pkijs.CertID();
  await certID.createForCertificate(pk(opts.cert), { hashAlgorithm: 'SHA-1', issuerCertificate: issuer });
  const certStatus =
    opts.status === 'good'
      ? new asn1js.Primitive({ idBlock: { tagClass: 3, tagNumber: 0 } })
      : opts.status === 'unknown'
        ? new asn1js.Primitive({ idBlock: { tagClass: 3, tagNumber: 2 } })
        : new asn1js.Constructed({
            idBlock: { tagClass: 3, tagNumber: 1 },
            value: [new asn1js.GeneralizedTime({ valueDate: opts.status.revokedAt })],
          });
  const basic = new pkijs.BasicOCSPResponse();
  basic.tbsResponseData.responderID = issuer.subject;
  basic.tbsResponseData.producedAt = new Date();
  basic.tbsResponseData.responses.push(
    new pkijs.SingleResponse({ certID, certStatus, thisUpdate: new Date() }),
  );
  await basic.sign(opts.signingKey as Parameters<typeof basic.sign>[0], 'SHA-256');
  const response = new pkijs.OCSPResponse({
    responseStatus: new asn1js.Enumerated({ value: 0 }),
    responseBytes: new pkijs.ResponseBytes({
      responseType: '1.3.6.1.5.5.7.48.1.1',
      response: new asn1js.OctetString({ valueHex: basic.toSchema().toBER(false) }),
    }),
  });
  return Buffer.from(response.toSchema().toBER(false));
}
