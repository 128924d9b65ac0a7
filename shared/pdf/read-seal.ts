// Reads the seal of a PDF from the file alone: the last signature that is not a document
// timestamp, its signature dictionary (/ByteRange, /Contents, /M, /Name, /Reason, /Location) and
// the CMS (PKCS #7) SignedData in /Contents. It checks what the file itself can prove: the signed
// bytes hash to the message digest the signer signed, the signature over the signed attributes
// holds with the embedded certificate's key, and the signed ranges cover the whole file, or what
// follows them is covered by archive timestamps (PAdES B-LTA: the DSS and a /DocTimeStamp) whose
// tokens stamp exactly their byte ranges and are signed by their certificates. Trust in the
// certificates (whose seal it is) is not decided here: the verification answers say whose name
// the certificate carries and whether this service issued the file (its hash).
import { createHash, verify as cryptoVerify, X509Certificate } from 'node:crypto';
import { tooManySignatures, UNTRUSTED_PDF_LIMITS } from './untrusted-limits';

export interface TSealInfo {
  /** The signature holds over the bytes it names, with the embedded certificate. */
  valid: boolean;
  /** The signed byte ranges run from the file's first byte to its last: nothing was added after. */
  coversWholeFile: boolean;
  /** The certificate's subject common name (else /Name of the signature dictionary). */
  signerName?: string;
  /** The signing time: the signed attribute if present, else /M, as ISO time. */
  signedAt?: string;
  reason?: string;
  location?: string;
  /** Why `valid` is false, for logs and the verification answer. */
  problem?: string;
}

// ---- the signature dictionary ----

const latin1 = (bytes: Uint8Array) =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');

/** A PDF string (literal `( … )` or hex `< … >`) → text; UTF-16BE with a BOM is decoded. */
function pdfString(raw: string): string {
  let bytes: Buffer;
  if (raw.startsWith('<')) {
    bytes = Buffer.from(raw.slice(1, -1).replace(/\s+/g, ''), 'hex');
  } else {
    const body = raw.slice(1, -1);
    const out: number[] = [];
    for (let i = 0; i < body.length; i++) {
      const c = body[i]!;
      if (c !== '\\') {
        out.push(c.charCodeAt(0) & 0xff);
        continue;
      }
      const n = body[++i];
      if (n === undefined) break;
      const simple: Record<string, number> = { n: 10, r: 13, t: 9, b: 8, f: 12, '(': 40, ')': 41, '\\': 92 };
      if (n in simple) out.push(simple[n]!);
      else if (/[0-7]/.test(n)) {
        let oct = n;
        while (oct.length < 3 && /[0-7]/.test(body[i + 1] ?? '')) oct += body[++i];
        out.push(Number.parseInt(oct, 8) & 0xff);
      } else if (n === '\r' || n === '\n') {
        if (n === '\r' && body[i + 1] === '\n') i++;
      } else out.push(n.charCodeAt(0));
    }
    bytes = Buffer.from(out);
  }
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) {
    const swapped = Buffer.from(bytes.subarray(2));
    swapped.swap16();
    return swapped.toString('utf16le');
  }
  return bytes.toString('latin1');
}

/** The value of `/Key (string)` or `/Key <hex>` in a dictionary's text. */
function stringEntry(dict: string, key: string): string | undefined {
  const m = new RegExp(`/${key}\\s*(\\((?:\\\\.|[^\\\\)])*\\)|<[0-9A-Fa-f\\s]*>)`, 's').exec(dict);
  return m ? pdfString(m[1]!) : undefined;
}

/** `D:YYYYMMDDHHmmSS+HH'mm'` → ISO time. */
function pdfDate(value: string | undefined): string | undefined {
  const m = /^D:(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?([Zz+-])?(\d{2})?'?(\d{2})?/.exec(value ?? '');
  if (!m) return undefined;
  const [, y, mo = '01', d = '01', h = '00', mi = '00', s = '00', sign, oh = '00', om = '00'] = m;
  const zone = !sign || sign.toUpperCase() === 'Z' ? 'Z' : `${sign}${oh}:${om}`;
  const t = Date.parse(`${y}-${mo}-${d}T${h}:${mi}:${s}${zone}`);
  return Number.isNaN(t) ? undefined : new Date(t).toISOString();
}

// ---- DER ----

interface TNode {
  tag: number;
  /** Offset of the tag byte and of the contents within the buffer. */
  start: number;
  contentStart: number;
  end: number;
}

function readNode(buf: Buffer, at: number): TNode {
  if (at + 2 > buf.length) throw new Error('DER: truncated');
  const tag = buf[at]!;
  if ((tag & 0x1f) === 0x1f) throw new Error('DER: long tags are not used here');
  let len = buf[at + 1]!;
  let p = at + 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    if (n === 0 || n > 4) throw new Error('DER: unsupported length');
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + buf[p++]!;
  }
  if (p + len > buf.length) throw new Error('DER: length past the end');
  return { tag, start: at, contentStart: p, end: p + len };
}

function children(buf: Buffer, node: TNode): TNode[] {
  const out: TNode[] = [];
  for (let p = node.contentStart; p < node.end; ) {
    const c = readNode(buf, p);
    out.push(c);
    p = c.end;
  }
  return out;
}

function oidOf(buf: Buffer, node: TNode): string {
  const b = buf.subarray(node.contentStart, node.end);
  const parts = [Math.floor(b[0]! / 40), b[0]! % 40];
  let v = 0;
  for (let i = 1; i < b.length; i++) {
    v = v * 128 + (b[i]! & 0x7f);
    if (!(b[i]! & 0x80)) {
      parts.push(v);
      v = 0;
    }
  }
  return parts.join('.');
}

const OID = {
  signedData: '1.2.840.113549.1.7.2',
  tstInfo: '1.2.840.113549.1.9.16.1.4',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
  sha1: '1.3.14.3.2.26',
  sha256: '2.16.840.1.101.3.4.2.1',
  sha384: '2.16.840.1.101.3.4.2.2',
  sha512: '2.16.840.1.101.3.4.2.3',
} as const;

const HASH_OF_OID: Record<string, string> = {
  [OID.sha1]: 'sha1',
  [OID.sha256]: 'sha256',
  [OID.sha384]: 'sha384',
  [OID.sha512]: 'sha512',
};

function asn1Time(buf: Buffer, node: TNode): string | undefined {
  const s = buf.subarray(node.contentStart, node.end).toString('latin1');
  const m =
    node.tag === 0x17
      ? /^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})?Z$/.exec(s)
      : /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})?(?:\.\d+)?Z$/.exec(s);
  if (!m) return undefined;
  const year = node.tag === 0x17 ? (Number(m[1]) < 50 ? 2000 : 1900) + Number(m[1]) : Number(m[1]);
  const t = Date.UTC(year, Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6] ?? 0));
  return new Date(t).toISOString();
}

interface TSignedData {
  /** The encapsulated content (a timestamp token's TSTInfo), when there is one. */
  eContent?: { type: string; value: Buffer };
  certificates: Buffer[];
  digestAlgorithm: string;
  signedAttrs?: Buffer;
  messageDigest?: Buffer;
  signingTime?: string;
  signature: Buffer;
  issuerSerial?: { serial: string };
}

/** ContentInfo { signedData, [0] SignedData { …, [0] certificates, …, signerInfos } }. */
function parseSignedData(der: Buffer): TSignedData {
  const contentInfo = readNode(der, 0);
  const [type, explicit] = children(der, contentInfo);
  if (!type || !explicit || oidOf(der, type) !== OID.signedData) throw new Error('not CMS SignedData');
  const signedData = children(der, explicit)[0]!;
  const parts = children(der, signedData);
  let eContent: TSignedData['eContent'];
  const [eType, eExplicit] = parts[2] ? children(der, parts[2]) : [];
  if (eType && eExplicit?.tag === 0xa0) {
    const octets = children(der, eExplicit)[0];
    // DER writes one OCTET STRING; BER, as some authorities send, may split it into pieces (0x24).
    const value =
      octets?.tag === 0x04
        ? der.subarray(octets.contentStart, octets.end)
        : octets?.tag === 0x24
          ? Buffer.concat(children(der, octets).map((p) => der.subarray(p.contentStart, p.end)))
          : undefined;
    if (value) eContent = { type: oidOf(der, eType), value };
  }
  const certificates: Buffer[] = [];
  const certSet = parts.find((p) => p.tag === 0xa0);
  if (certSet) {
    for (const c of children(der, certSet)) {
      if (c.tag === 0x30) certificates.push(der.subarray(c.start, c.end));
    }
  }
  const signerInfos = parts.at(-1)!;
  const signerInfo = children(der, signerInfos)[0];
  if (!signerInfo) throw new Error('no signer');
  const si = children(der, signerInfo);
  // version, sid, digestAlgorithm, [0] signedAttrs?, signatureAlgorithm, signature, [1]?
  const sid = si[1]!;
  const digestAlgorithm = oidOf(der, children(der, si[2]!)[0]!);
  let i = 3;
  let signedAttrs: Buffer | undefined;
  let messageDigest: Buffer | undefined;
  let signingTime: string | undefined;
  if (si[i]?.tag === 0xa0) {
    const attrs = si[i]!;
    // Signed over as a SET (tag 0x31), not as the [0] it is stored as.
    signedAttrs = Buffer.concat([Buffer.from([0x31]), der.subarray(attrs.start + 1, attrs.end)]);
    for (const attr of children(der, attrs)) {
      const [oid, values] = children(der, attr);
      if (!oid || !values) continue;
      const first = children(der, values)[0];
      if (!first) continue;
      const name = oidOf(der, oid);
      if (name === OID.messageDigest) messageDigest = der.subarray(first.contentStart, first.end);
      if (name === OID.signingTime) signingTime = asn1Time(der, first);
    }
    i++;
  }
  i++; // signatureAlgorithm
  const sig = si[i];
  if (sig?.tag !== 0x04) throw new Error('no signature value');
  let serial: string | undefined;
  if (sid.tag === 0x30) {
    const serialNode = children(der, sid)[1];
    if (serialNode) serial = der.subarray(serialNode.contentStart, serialNode.end).toString('hex');
  }
  return {
    ...(eContent ? { eContent } : {}),
    certificates,
    digestAlgorithm,
    ...(signedAttrs ? { signedAttrs } : {}),
    ...(messageDigest ? { messageDigest } : {}),
    ...(signingTime ? { signingTime } : {}),
    signature: der.subarray(sig.contentStart, sig.end),
    ...(serial ? { issuerSerial: { serial } } : {}),
  };
}

const commonName = (subject: string) => /(?:^|\n)CN=([^\n]*)/.exec(subject)?.[1];

interface TSignatureAt {
  /** Where its dictionary's /ByteRange is. */
  at: number;
  range: [number, number, number, number] | undefined;
  dict: string;
  documentTimestamp: boolean;
}

/** Every signature dictionary of the file, in file order. */
function signaturesOf(text: string): TSignatureAt[] {
  const out: TSignatureAt[] = [];
  for (let at = text.indexOf('/ByteRange'); at >= 0; at = text.indexOf('/ByteRange', at + 1)) {
    const m = /^\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/.exec(text.slice(at, at + 120));
    const range = m ? (m.slice(1).map(Number) as [number, number, number, number]) : undefined;
    const objStart = Math.max(text.lastIndexOf(' obj', at), 0);
    const objEnd = text.indexOf('endobj', at);
    // The dictionary without the (long) signature value, which sits between the two ranges.
    const dict =
      range && range[0] + range[1] > objStart && range[0] + range[1] < range[2]
        ? text.slice(objStart, range[0] + range[1]) +
          text.slice(range[2], objEnd > range[2] ? objEnd : range[2] + 4096)
        : text.slice(objStart, objEnd > at ? objEnd : at + 4096);
    out.push({ at, range, dict, documentTimestamp: /\/SubFilter\s*\/ETSI\.RFC3161\b/.test(dict) });
    if (range) at = Math.max(at, range[2] - 1); // past the signature value, which may hold any bytes
  }
  return out;
}

/** The DER in a signature's /Contents, cut at its outer SEQUENCE's length (the slot is zero-padded). */
function contentsOf(text: string, range: [number, number, number, number]): Buffer {
  const [a, b, c] = range;
  const hex = text
    .slice(a + b, c)
    .replace(/^</, '')
    .replace(/>$/, '')
    .replace(/\s+/g, '');
  const der = Buffer.from(hex, 'hex');
  return der.subarray(0, readNode(der, 0).end);
}

/** `problem` when an archive timestamp does not hold over its byte ranges, else undefined. */
function documentTimestampProblem(pdf: Buffer, text: string, sig: TSignatureAt): string | undefined {
  const range = sig.range;
  if (!range) return 'an archive timestamp has an unreadable /ByteRange';
  const [a, b, c, d] = range;
  if (!(a === 0 && a + b < c && c + d <= pdf.length))
    return 'an archive timestamp names bytes outside the file';
  try {
    const token = parseSignedData(contentsOf(text, range));
    if (token.eContent?.type !== OID.tstInfo || !token.signedAttrs || !token.messageDigest)
      return 'an archive timestamp is not a timestamp token';
    const hashName = HASH_OF_OID[token.digestAlgorithm];
    if (!hashName) return `an archive timestamp uses an unknown digest ${token.digestAlgorithm}`;
    // TSTInfo { version, policy, messageImprint { hashAlgorithm, hashedMessage }, … }
    const tst = token.eContent.value;
    const [, , imprintNode] = children(tst, readNode(tst, 0));
    const [algorithm, hashed] = children(tst, imprintNode!);
    const imprintHash = HASH_OF_OID[oidOf(tst, children(tst, algorithm!)[0]!)];
    if (!imprintHash) return 'an archive timestamp stamps with an unknown digest';
    const ranges = createHash(imprintHash)
      .update(pdf.subarray(a, a + b))
      .update(pdf.subarray(c, c + d))
      .digest();
    if (!ranges.equals(tst.subarray(hashed!.contentStart, hashed!.end)))
      return 'the bytes an archive timestamp covers were changed';
    if (!createHash(hashName).update(tst).digest().equals(token.messageDigest))
      return 'an archive timestamp token was changed';
    const cert = token.certificates
      .map((x) => new X509Certificate(x))
      .find(
        (x) =>
          token.issuerSerial &&
          x.serialNumber.toLowerCase() === token.issuerSerial.serial.replace(/^00/, '').toLowerCase(),
      );
    if (!cert) return 'an archive timestamp does not include the certificate that signed it';
    return cryptoVerify(hashName, token.signedAttrs, cert.publicKey, token.signature)
      ? undefined
      : 'the signature of an archive timestamp does not hold';
  } catch (err) {
    return `an archive timestamp is unreadable (${(err as Error).message})`;
  }
}

/**
 * The seal of `pdf`, or undefined when it carries no signature. PdfTooComplexError for more
 * signature dictionaries than untrusted files may hold.
 */
export function readSeal(pdf: Uint8Array): TSealInfo | undefined {
  const text = latin1(pdf);
  const signatures = signaturesOf(text);
  if (signatures.length > UNTRUSTED_PDF_LIMITS.maxSignatures) throw tooManySignatures(signatures.length);
  const sealIndex = signatures.findLastIndex((s) => !s.documentTimestamp);
  if (sealIndex < 0) return undefined;
  const seal = signatures[sealIndex]!;
  const archive = signatures.slice(sealIndex + 1);
  const info = readSignature(pdf, text, seal);
  if (archive.length === 0 || !info.valid) return info;
  // What follows the seal (validation data, archive timestamps) must be covered, the last
  // archive timestamp covering the whole file.
  const bytes = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  for (const stamp of archive) {
    const problem = documentTimestampProblem(bytes, text, stamp);
    if (problem) return { ...info, valid: false, coversWholeFile: false, problem };
  }
  const last = archive.at(-1)!.range!;
  const trailing = text.slice(last[2] + last[3]).replace(/[\s\0]+$/, '');
  return { ...info, coversWholeFile: last[2] + last[3] <= pdf.length && trailing.length === 0 };
}

/** One signature's dictionary and CMS, checked over its own byte ranges. */
function readSignature(pdf: Uint8Array, text: string, sig: TSignatureAt): TSealInfo {
  if (!sig.range) return { valid: false, coversWholeFile: false, problem: 'unreadable /ByteRange' };
  const [a, b, c, d] = sig.range;
  const dict = sig.dict;
  const reason = stringEntry(dict, 'Reason');
  const location = stringEntry(dict, 'Location');
  const name = stringEntry(dict, 'Name');
  const mDate = pdfDate(stringEntry(dict, 'M'));
  const trailing = text.slice(c + d).replace(/[\s\0]+$/, '');
  const coversWholeFile = a === 0 && c + d <= pdf.length && trailing.length === 0 && a + b < c;
  const base: TSealInfo = {
    valid: false,
    coversWholeFile,
    ...(name ? { signerName: name } : {}),
    ...(mDate ? { signedAt: mDate } : {}),
    ...(reason ? { reason } : {}),
    ...(location ? { location } : {}),
  };
  if (!(a + b < c && c + d <= pdf.length)) return { ...base, problem: '/ByteRange outside the file' };
  try {
    const der = contentsOf(text, sig.range);
    const signed = parseSignedData(der);
    const certs = signed.certificates.map((x) => new X509Certificate(x));
    const cert =
      certs.find(
        (x) =>
          signed.issuerSerial &&
          x.serialNumber.toLowerCase() === signed.issuerSerial.serial.replace(/^00/, '').toLowerCase(),
      ) ?? certs[0];
    const info: TSealInfo = {
      ...base,
      ...(cert && commonName(cert.subject) ? { signerName: commonName(cert.subject)! } : {}),
      ...(signed.signingTime ? { signedAt: signed.signingTime } : {}),
    };
    const hashName = HASH_OF_OID[signed.digestAlgorithm];
    if (!hashName) return { ...info, problem: `unknown digest ${signed.digestAlgorithm}` };
    if (!cert) return { ...info, problem: 'no certificate in the signature' };
    const bytes = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
    const digest = createHash(hashName)
      .update(bytes.subarray(a, a + b))
      .update(bytes.subarray(c, c + d))
      .digest();
    if (!signed.signedAttrs || !signed.messageDigest) {
      const ok = cryptoVerify(
        hashName,
        Buffer.concat([bytes.subarray(a, a + b), bytes.subarray(c, c + d)]),
        cert.publicKey,
        signed.signature,
      );
      return ok ? { ...info, valid: true } : { ...info, problem: 'the signature does not hold' };
    }
    if (!digest.equals(signed.messageDigest)) {
      return { ...info, problem: 'the signed bytes were changed' };
    }
    const ok = cryptoVerify(hashName, signed.signedAttrs, cert.publicKey, signed.signature);
    return ok ? { ...info, valid: true } : { ...info, problem: 'the signature does not hold' };
  } catch (err) {
    return { ...base, problem: `unreadable signature (${(err as Error).message})` };
  }
}
