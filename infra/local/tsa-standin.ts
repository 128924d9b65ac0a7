// A local stand-in of an RFC 3161 timestamp authority: POST a DER TimeStampReq
// (application/timestamp-query), get a DER TimeStampResp (application/timestamp-reply) whose token
// is signed by the local CA's TSA certificate (local-ca.ts), with the request's nonce and imprint
// and, when asked, the certificate. Loopback only. Tests can make it misbehave in each of the ways
// a real authority may (down, slow, garbage, another nonce or imprint, a certificate that may not
// stamp), to show that the service refuses every such answer.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { OID } from '#shared/adapters/timestamps/tsp';
import { type TIssuedIdentity, type TLocalCa, tsaExtensions } from './local-ca';

export type TTsaMode =
  | 'ok'
  | 'down'
  | 'slow'
  | 'garbage'
  | 'wrong-nonce'
  | 'wrong-imprint'
  | 'no-eku'
  | 'forged';

/** The local policy under which the stand-in stamps (an OID under the example arc, RFC 7229 style). */
const LOCAL_POLICY = '1.3.6.1.4.1.32473.1.1';
const ATTR = {
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
} as const;

const sha256 = (data: ArrayBuffer | Uint8Array) =>
  createHash('sha256')
    .update(data instanceof Uint8Array ? data : new Uint8Array(data))
    .digest();

/** A positive INTEGER's content bytes. */
const positive = (n: number) => {
  const b = randomBytes(n);
  b[0] = (b[0]! & 0x7f) | 0x01;
  return b;
};

/** The token: SignedData over the TSTInfo, with the ESS signing-certificate attribute RFC 5816 asks for. */
async function token(
  signer: TIssuedIdentity,
  tst: pkijs.TSTInfo,
  withCertificate: boolean,
  signingKey = signer.privateKey,
): Promise<pkijs.ContentInfo> {
  const tstDer = tst.toSchema().toBER(false);
  const cert = pkijs.Certificate.fromBER(signer.certificate.rawData);
  // SigningCertificateV2 { certs: [ ESSCertIDv2 { certHash } ] }, hash SHA-256 by default.
  const essCertId = new asn1js.Sequence({
    value: [
      new asn1js.Sequence({
        value: [
          new asn1js.Sequence({
            value: [new asn1js.OctetString({ valueHex: sha256(signer.certificate.rawData) })],
          }),
        ],
      }),
    ],
  });
  const signed = new pkijs.SignedData({
    version: 3,
    encapContentInfo: new pkijs.EncapsulatedContentInfo({
      eContentType: OID.tstInfo,
      eContent: new asn1js.OctetString({ valueHex: tstDer }),
    }),
    signerInfos: [
      new pkijs.SignerInfo({
        version: 1,
        sid: new pkijs.IssuerAndSerialNumber({ issuer: cert.issuer, serialNumber: cert.serialNumber }),
        signedAttrs: new pkijs.SignedAndUnsignedAttributes({
          type: 0,
          attributes: [
            new pkijs.Attribute({
              type: ATTR.contentType,
              values: [new asn1js.ObjectIdentifier({ value: OID.tstInfo })],
            }),
            new pkijs.Attribute({
              type: ATTR.messageDigest,
              values: [new asn1js.OctetString({ valueHex: sha256(tstDer) })],
            }),
            new pkijs.Attribute({ type: ATTR.signingCertificateV2, values: [essCertId] }),
          ],
        }),
      }),
    ],
    ...(withCertificate ? { certificates: [cert] } : {}),
  });
  // DER, as real authorities answer and strict parsers (asn1crypto, pyHanko) insist: pkijs splits
  // an eContent into a constructed OCTET STRING (BER only), so the TSTInfo goes back in as one
  // primitive string, and the signed attributes are a SET OF in the order of their encodings.
  signed.encapContentInfo.eContent = new asn1js.OctetString({ valueHex: tstDer });
  const attrs = signed.signerInfos[0]!.signedAttrs!;
  attrs.attributes.sort((x, y) =>
    Buffer.compare(Buffer.from(x.toSchema().toBER(false)), Buffer.from(y.toSchema().toBER(false))),
  );
  await signed.sign(signingKey, 0, 'SHA-256');
  return new pkijs.ContentInfo({ contentType: OID.signedData, content: signed.toSchema(true) });
}

function rejection(): Buffer {
  const resp = new pkijs.TimeStampResp({
    status: new pkijs.PKIStatusInfo({ status: pkijs.PKIStatus.rejection }),
  });
  return Buffer.from(resp.toSchema().toBER(false));
}

export interface TTsaStandin {
  /** Where to POST requests. */
  url: string;
  bound: AddressInfo;
  /** The local root its certificate chains to (PEM): what a verifier of its tokens trusts. */
  rootPem: string;
  /** How it answers from now on. */
  setMode(mode: TTsaMode): void;
  /** Headers a request must carry (a paid authority's credentials), else 401; undefined: none. */
  requireHeaders(headers: Record<string, string> | undefined): void;
  stop(): Promise<void>;
}

export async function startTsaStandin(opts: { ca: TLocalCa; port?: number }): Promise<TTsaStandin> {
  let mode: TTsaMode = 'ok';
  let required: Record<string, string> | undefined;
  let noEku: TIssuedIdentity | undefined;

  async function answer(der: Buffer): Promise<Buffer> {
    const parsed = asn1js.fromBER(new Uint8Array(der));
    if (parsed.offset === -1) return rejection();
    let req: pkijs.TimeStampReq;
    try {
      req = new pkijs.TimeStampReq({ schema: parsed.result });
    } catch {
      return rejection();
    }
    let signer = opts.ca.tsa;
    if (mode === 'no-eku') {
      // Signing only, without the timestamping usage: a certificate that may not stamp.
      noEku ??= await opts.ca.issue('CN=Local signer that may not stamp', [tsaExtensions()[0]!]);
      signer = noEku;
    }
    const imprint =
      mode === 'wrong-imprint'
        ? new pkijs.MessageImprint({
            hashAlgorithm: req.messageImprint.hashAlgorithm,
            hashedMessage: new asn1js.OctetString({ valueHex: new Uint8Array(sha256(randomBytes(16))) }),
          })
        : req.messageImprint;
    const nonce =
      mode === 'wrong-nonce' ? new asn1js.Integer({ valueHex: new Uint8Array(positive(8)) }) : req.nonce;
    const tst = new pkijs.TSTInfo({
      version: 1,
      policy: req.reqPolicy ?? LOCAL_POLICY,
      messageImprint: imprint,
      serialNumber: new asn1js.Integer({ valueHex: new Uint8Array(positive(12)) }),
      genTime: new Date(Math.floor(Date.now() / 1000) * 1000),
      ...(nonce ? { nonce } : {}),
    });
    const resp = new pkijs.TimeStampResp({
      status: new pkijs.PKIStatusInfo({ status: pkijs.PKIStatus.granted }),
      // Forged: signed by another key than the certificate's it names.
      timeStampToken: await token(
        signer,
        tst,
        req.certReq === true,
        mode === 'forged' ? opts.ca.rootKey : signer.privateKey,
      ),
    });
    return Buffer.from(resp.toSchema().toBER(false));
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST', 'content-type': 'text/plain' });
      res.end('POST an RFC 3161 TimeStampReq (application/timestamp-query).\n');
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > 64 * 1024) {
        res.writeHead(413).end();
        return;
      }
      chunks.push(chunk as Buffer);
    }
    if (
      required &&
      Object.entries(required).some(([name, value]) => req.headers[name.toLowerCase()] !== value)
    ) {
      res.writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': 'Basic realm="tsa"' });
      res.end('Credentials required.\n');
      return;
    }
    if (mode === 'down') {
      res.writeHead(503, { 'content-type': 'text/plain' }).end('Timestamp service unavailable.\n');
      return;
    }
    if (mode === 'slow') return; // never answers: the client's deadline decides
    const body = mode === 'garbage' ? randomBytes(64) : await answer(Buffer.concat(chunks));
    res.writeHead(200, { 'content-type': 'application/timestamp-reply', 'content-length': body.length });
    res.end(body);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  // Loopback only, like every stand-in of the local runtime.
  await new Promise<void>((done) => server.listen(opts.port ?? 0, '127.0.0.1', done));
  const bound = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound.port}/tsa`,
    bound,
    rootPem: opts.ca.root.toString('pem'),
    setMode: (m) => {
      mode = m;
    },
    requireHeaders: (headers) => {
      required = headers;
    },
    stop: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
