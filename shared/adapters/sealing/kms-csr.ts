// A certificate signing request (PKCS #10, RFC 2986) for a KMS seal key, signed by that key
// through KMS Sign: what the operator hands a CA (seal-csr), and what the local runtime hands its
// local CA. The request's parts are DER-encoded with asn1js; the key never leaves KMS.
// @peculiar/x509 resolves its parsers through tsyringe, which needs the Reflect metadata API.
import 'reflect-metadata';
import type { KMSClient } from '@aws-sdk/client-kms';
import * as x509 from '@peculiar/x509';
import * as asn1js from 'asn1js';
import { kmsPublicKey, kmsSigner } from './kms-seal-identity';

const SIGNATURE_OID = {
  RSASSA_PKCS1_V1_5_SHA_256: '1.2.840.113549.1.1.11', // sha256WithRSAEncryption
  ECDSA_SHA_256: '1.2.840.10045.4.3.2', // ecdsa-with-SHA256
} as const;

const fromDer = (der: ArrayBuffer | Buffer) => {
  const bytes = der instanceof ArrayBuffer ? new Uint8Array(der) : new Uint8Array(der);
  const parsed = asn1js.fromBER(bytes);
  if (parsed.offset === -1) throw new Error('Not DER');
  return parsed.result;
};

/** The DER of a distinguished name written as "CN=…, O=…, C=…"; a clear error if it is none. */
export function subjectDer(subject: string): ArrayBuffer {
  let name: x509.Name;
  try {
    name = new x509.Name(subject);
  } catch (err) {
    throw new Error(
      `The subject "${subject}" is not a distinguished name like "CN=Acme seal, O=Acme, C=DE": ${(err as Error).message}`,
    );
  }
  if (!name.getField('CN').length) {
    throw new Error(`The subject "${subject}" has no CN: give at least "CN=<the seal's name>".`);
  }
  // A name is written most specific first (RFC 4514: "CN=…, O=…, C=…") and encoded the other
  // way round (C, O, CN), as CAs expect; the parser keeps the written order, so turn it.
  return new x509.Name(name.toJSON().reverse()).toArrayBuffer();
}

/** The PEM request for `subject`, signed by the KMS key `keyId`. */
export async function kmsCsr(kms: KMSClient, keyId: string, subject: string): Promise<string> {
  const name = subjectDer(subject);
  const key = await kmsPublicKey(kms, keyId);
  const info = new asn1js.Sequence({
    value: [
      new asn1js.Integer({ value: 0 }),
      fromDer(name),
      fromDer(key.spki),
      // attributes [0]: none; the CA decides the seal certificate's extensions.
      new asn1js.Constructed({ idBlock: { tagClass: 3, tagNumber: 0 }, value: [] }),
    ],
  });
  const infoDer = Buffer.from(info.toBER(false));
  const signature = await kmsSigner(kms, keyId, key.algorithm)(infoDer);
  const algorithm = SIGNATURE_OID[key.algorithm];
  const request = new asn1js.Sequence({
    value: [
      fromDer(infoDer),
      new asn1js.Sequence({
        value: [
          new asn1js.ObjectIdentifier({ value: algorithm }),
          // RSA's AlgorithmIdentifier carries NULL parameters; ECDSA's none (RFC 5758).
          ...(key.algorithm === 'RSASSA_PKCS1_V1_5_SHA_256' ? [new asn1js.Null()] : []),
        ],
      }),
      new asn1js.BitString({ valueHex: new Uint8Array(signature) }),
    ],
  });
  const lines =
    Buffer.from(request.toBER(false))
      .toString('base64')
      .match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE REQUEST-----\n${lines.join('\n')}\n-----END CERTIFICATE REQUEST-----\n`;
}
