// Where the local CA publishes, as a real CA does over plain HTTP: its root certificate (what
// caIssuers names), its CRL, and an OCSP responder (RFC 6960; POST, and GET with the request in
// the path). The answers are signed by the root itself, the CA answering for the certificates it
// issued. Loopback only. It listens on the port it had last time (kept in the CA's folder), since
// the certificates the CA issued name this address for good.
import 'reflect-metadata';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import '#shared/adapters/timestamps/tsp'; // sets pkijs's crypto engine
import { normalSerial, PKI_PATHS, type TLocalCa } from './local-ca';

const PORT_FILE = 'pki.json';
const FRESH_MS = 24 * 3600 * 1000;
const OID = {
  basicOcsp: '1.3.6.1.5.5.7.48.1.1',
  ocspNonce: '1.3.6.1.5.5.7.48.1.2',
  sha1: '1.3.14.3.2.26',
  sha256: '2.16.840.1.101.3.4.2.1',
} as const;
const HASHES: Record<string, string> = { [OID.sha1]: 'sha1', [OID.sha256]: 'sha256' };

export interface TPkiStandin {
  /** Base URL: the certificates name `${url}/root.crl`, `${url}/ocsp`, `${url}/root.crt`. */
  url: string;
  bound: AddressInfo;
  /** Starts answering for `ca` (made after the server, since its certificates name the URL). */
  serve(ca: TLocalCa): void;
  stop(): Promise<void>;
}

const ocspStatus = (status: number) =>
  Buffer.from(
    new pkijs.OCSPResponse({ responseStatus: new asn1js.Enumerated({ value: status }) })
      .toSchema()
      .toBER(false),
  );

/** The OCSP answer to a DER OCSPRequest: good, revoked or (another issuer's) unknown for each certificate asked about. */
async function answerOcsp(ca: TLocalCa, der: Buffer, now = new Date()): Promise<Buffer> {
  let request: pkijs.OCSPRequest;
  try {
    request = pkijs.OCSPRequest.fromBER(new Uint8Array(der));
  } catch {
    return ocspStatus(1); // malformedRequest
  }
  const root = pkijs.Certificate.fromBER(ca.root.rawData);
  const rootName = Buffer.from(root.subject.toSchema().toBER(false));
  const rootKey = Buffer.from(root.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView);
  const revoked = new Map(ca.revocations().map((r) => [r.serial, r]));
  const responses: pkijs.SingleResponse[] = [];
  for (const { reqCert } of request.tbsRequest.requestList) {
    const hash = HASHES[reqCert.hashAlgorithm.algorithmId];
    const ours =
      hash !== undefined &&
      createHash(hash)
        .update(rootName)
        .digest()
        .equals(Buffer.from(reqCert.issuerNameHash.valueBlock.valueHexView)) &&
      createHash(hash)
        .update(rootKey)
        .digest()
        .equals(Buffer.from(reqCert.issuerKeyHash.valueBlock.valueHexView));
    const serial = normalSerial(Buffer.from(reqCert.serialNumber.valueBlock.valueHexView).toString('hex'));
    const revocation = ours ? revoked.get(serial) : undefined;
    const certStatus = !ours
      ? new asn1js.Primitive({ idBlock: { tagClass: 3, tagNumber: 2 } }) // unknown
      : revocation
        ? new asn1js.Constructed({
            idBlock: { tagClass: 3, tagNumber: 1 },
            value: [
              new asn1js.GeneralizedTime({ valueDate: new Date(revocation.at) }),
              new asn1js.Constructed({
                idBlock: { tagClass: 3, tagNumber: 0 },
                value: [new asn1js.Enumerated({ value: revocation.reason })],
              }),
            ],
          })
        : new asn1js.Primitive({ idBlock: { tagClass: 3, tagNumber: 0 } }); // good
    responses.push(
      new pkijs.SingleResponse({
        certID: reqCert,
        certStatus,
        thisUpdate: now,
        nextUpdate: new Date(now.getTime() + FRESH_MS),
      }),
    );
  }
  // The request's nonce comes back, so a client can tell the answer is fresh.
  const nonce = request.tbsRequest.requestExtensions?.find((e) => e.extnID === OID.ocspNonce);
  const basic = new pkijs.BasicOCSPResponse({
    tbsResponseData: new pkijs.ResponseData({
      responderID: root.subject,
      producedAt: now,
      responses,
      ...(nonce ? { responseExtensions: [nonce] } : {}),
    }),
  });
  await basic.sign(ca.rootKey, 'SHA-256');
  return Buffer.from(
    new pkijs.OCSPResponse({
      responseStatus: new asn1js.Enumerated({ value: 0 }),
      responseBytes: new pkijs.ResponseBytes({
        responseType: OID.basicOcsp,
        response: new asn1js.OctetString({ valueHex: basic.toSchema().toBER(false) }),
      }),
    })
      .toSchema()
      .toBER(false),
  );
}

function storedPort(dir: string | undefined): number {
  if (!dir) return 0;
  try {
    const { port } = JSON.parse(readFileSync(join(dir, PORT_FILE), 'utf8')) as { port?: unknown };
    return typeof port === 'number' && Number.isInteger(port) ? port : 0;
  } catch {
    return 0;
  }
}

async function listen(server: ReturnType<typeof createServer>, port: number): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const onError = (err: Error) => {
      server.off('listening', onListening);
      reject(err);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, '127.0.0.1');
  });
}

/** Starts the publication point; `dir` is the CA's folder (none: any free port, for tests). */
export async function startPkiStandin(opts: { dir?: string } = {}): Promise<TPkiStandin> {
  let ca: TLocalCa | undefined;

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const path = (req.url ?? '/').split('?')[0]!;
    if (!ca) {
      res.writeHead(503, { 'content-type': 'text/plain' }).end('The local CA is starting.\n');
      return;
    }
    if (req.method === 'GET' && path === PKI_PATHS.root) {
      const body = Buffer.from(ca.root.rawData);
      res
        .writeHead(200, { 'content-type': 'application/pkix-cert', 'content-length': body.length })
        .end(body);
      return;
    }
    if (req.method === 'GET' && path === PKI_PATHS.crl) {
      const body = Buffer.from((await ca.crl()).rawData);
      res.writeHead(200, { 'content-type': 'application/pkix-crl', 'content-length': body.length }).end(body);
      return;
    }
    let request: Buffer | undefined;
    if (req.method === 'POST' && path === PKI_PATHS.ocsp) {
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of req) {
        size += (chunk as Buffer).length;
        if (size > 16 * 1024) {
          res.writeHead(413).end();
          return;
        }
        chunks.push(chunk as Buffer);
      }
      request = Buffer.concat(chunks);
    } else if (req.method === 'GET' && path.startsWith(`${PKI_PATHS.ocsp}/`)) {
      // RFC 6960 A.1: the DER request, base64 and then URL-encoded, as the last path segment.
      request = Buffer.from(decodeURIComponent(path.slice(PKI_PATHS.ocsp.length + 1)), 'base64');
    }
    if (!request) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end(`Here: GET ${PKI_PATHS.root}, GET ${PKI_PATHS.crl}, POST ${PKI_PATHS.ocsp}.\n`);
      return;
    }
    const body = await answerOcsp(ca, request);
    res
      .writeHead(200, { 'content-type': 'application/ocsp-response', 'content-length': body.length })
      .end(body);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  const wanted = storedPort(opts.dir);
  try {
    await listen(server, wanted);
  } catch (err) {
    // Taken by something else: certificates issued for the old port are re-issued (local-ca.ts).
    if (wanted === 0 || (err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    await listen(server, 0);
  }
  const bound = server.address() as AddressInfo;
  if (opts.dir && bound.port !== wanted) {
    mkdirSync(opts.dir, { recursive: true });
    writeFileSync(join(opts.dir, PORT_FILE), `${JSON.stringify({ port: bound.port })}\n`);
  }
  return {
    url: `http://127.0.0.1:${bound.port}`,
    bound,
    serve: (c) => {
      ca = c;
    },
    stop: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
