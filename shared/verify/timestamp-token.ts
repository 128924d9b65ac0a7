// An RFC 3161 TimeStampToken read from a file: the signature timestamp in a seal's CMS, or a
// document timestamp's /Contents. It vouches for a time only when its message imprint is the
// digest of what it claims to stamp, its signature holds, and its signer may issue timestamps
// (RFC 3161 §2.3: the extended key usage id-kp-timeStamping, critical).
import 'reflect-metadata';
import { createHash } from 'node:crypto';
import { ExtendedKeyUsageExtension, X509Certificate } from '@peculiar/x509';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { type CertPool, factsOf, type TCert } from './certificates';
import { checkSigner, HASHES, parseSignedData } from './cms-signer';
import type { TTimestampFacts } from './report';

const TST_INFO = '1.2.840.113549.1.9.16.1.4';
const TIME_STAMPING = '1.3.6.1.5.5.7.3.8';

export interface TTimestampCheck extends TTimestampFacts {
  signerCert: TCert | undefined;
}

const failed = (problem: string): TTimestampCheck => ({
  genTime: '',
  tsa: '',
  imprintMatches: false,
  signatureValid: false,
  timeStampingUsage: false,
  certificate: null,
  problem,
  signerCert: undefined,
});

/** The authority's own name in the TSTInfo (a directoryName), as "CN=…, O=…". */
function tsaNameOf(tst: pkijs.TSTInfo): string | undefined {
  const name = tst.tsa?.value;
  if (!(name instanceof pkijs.RelativeDistinguishedNames)) return undefined;
  return name.typesAndValues
    .map((t) => `${shortType[t.type] ?? t.type}=${t.value.valueBlock.value}`)
    .join(', ');
}
const shortType: Record<string, string> = {
  '2.5.4.3': 'CN',
  '2.5.4.10': 'O',
  '2.5.4.11': 'OU',
  '2.5.4.6': 'C',
};

function hasTimeStampingUsage(cert: TCert): boolean {
  try {
    const eku = new X509Certificate(cert.der).getExtension(ExtendedKeyUsageExtension);
    return Boolean(eku?.critical && eku.usages.includes(TIME_STAMPING));
  } catch {
    return false;
  }
}

/**
 * Checks `token` (DER) as a stamp over data whose digest `digestOf` gives for the imprint's hash
 * (node:crypto name). Its certificates join `pool`.
 */
export async function checkTimestampToken(
  token: Uint8Array,
  digestOf: (hash: string) => Buffer,
  pool: CertPool,
): Promise<TTimestampCheck> {
  let signed: pkijs.SignedData;
  let tst: pkijs.TSTInfo;
  let tstDer: Buffer;
  try {
    signed = parseSignedData(token);
    const content = signed.encapContentInfo;
    if (content.eContentType !== TST_INFO || !content.eContent) return failed('the token holds no TSTInfo');
    tstDer = Buffer.from(content.eContent.getValue());
    const parsed = asn1js.fromBER(new Uint8Array(tstDer));
    if (parsed.offset === -1) return failed('its TSTInfo is not DER');
    tst = new pkijs.TSTInfo({ schema: parsed.result });
  } catch (err) {
    return failed(`the token is unreadable: ${(err as Error).message}`);
  }
  const hash = HASHES[tst.messageImprint.hashAlgorithm.algorithmId];
  const imprintMatches = Boolean(
    hash && Buffer.from(tst.messageImprint.hashedMessage.valueBlock.valueHexView).equals(digestOf(hash.node)),
  );
  const signer = await checkSigner(signed, (h) => createHashOf(h, tstDer), pool);
  const cert = signer.signer;
  const timeStampingUsage = cert ? hasTimeStampingUsage(cert) : false;
  const signatureValid = signer.digestMatches && signer.signatureValid;
  const problem = !imprintMatches
    ? 'it stamps other data than this signature'
    : !signatureValid
      ? `its signature does not hold: ${signer.problem ?? 'unknown reason'}`
      : !timeStampingUsage
        ? 'its certificate may not issue timestamps (no critical timeStamping extended key usage)'
        : null;
  return {
    genTime: tst.genTime.toISOString(),
    tsa: tsaNameOf(tst) ?? (cert ? factsOf(cert).subject : 'unnamed authority'),
    imprintMatches,
    signatureValid,
    timeStampingUsage,
    certificate: cert ? factsOf(cert) : null,
    problem,
    signerCert: cert,
  };
}

const createHashOf = (hash: string, data: Buffer) => createHash(hash).update(data).digest();
