// Verifies a signed PDF from the file alone, offline: every signature and document timestamp in
// it, the chains of their certificates, and the revocation data its DSS carries (PAdES B-B to
// B-LTA, ETSI EN 319 142-1). Nothing of the service is asked, so anyone can check a file decades
// after the service is gone; with `online`, the CAs are also asked for revocation data now.
import { createHash } from 'node:crypto';
import type * as asn1js from 'asn1js';
import { CertPool, factsOf, nameOf, type TCert } from './certificates';
import { buildChain, isSelfIssued, issuerIn, isTrusted, type TChain } from './chains';
import { checkSigner, parseSignedData } from './cms-signer';
import { dssFacts } from './dss-facts';
import { evidenceRecordFacts } from './evidence-record-facts';
import { onlyDssAdded } from './later-changes';
import { fetchRevocationData } from './online-revocation';
import { readPdfParts, type TPdfParts, type TSignatureDict } from './pdf-signatures';
import type { TChainFacts, TCheck, TSignatureFacts, TVerifyReport } from './report';
import { NO_DATA, revocationStatus } from './revocation';
import { checkTimestampToken } from './timestamp-token';

export { UnreadablePdfError } from './pdf-signatures';

export interface TVerifyOptions {
  /** Root (or intermediate) certificates the person verifying trusts, DER. */
  trust?: Uint8Array[];
  /** Also ask each certificate's CA for revocation data now (network). */
  online?: boolean;
  /** Original documents to match against the evidence record's SHA-256s. */
  originals?: Uint8Array[];
}

const SIGNATURE_TIMESTAMP = '1.2.840.113549.1.9.16.2.14';

/** A signature's facts and the certificates it was checked with. */
interface TChecked {
  facts: TSignatureFacts;
  signerCert: TCert | undefined;
  tsaCert: TCert | undefined;
  /** The time the certificates must have been valid at: a timestamp's, else the claimed one. */
  at: Date | undefined;
}

function rangesOk(
  pdf: Buffer,
  r: [number, number, number, number] | null,
): r is [number, number, number, number] {
  if (!r) return false;
  const [a, b, c, d] = r;
  return a === 0 && a + b < c && c + d <= pdf.length && pdf[a + b] === 0x3c && pdf[c - 1] === 0x3e;
}

async function checkSignature(
  pdf: Buffer,
  dict: TSignatureDict,
  index: number,
  pool: CertPool,
): Promise<TChecked> {
  const kind: TSignatureFacts['kind'] =
    dict.type === 'DocTimeStamp' || dict.subFilter === 'ETSI.RFC3161' ? 'document timestamp' : 'signature';
  const facts: TSignatureFacts = {
    index,
    kind,
    field: dict.field,
    subFilter: dict.subFilter,
    byteRange: dict.byteRange ?? [0, 0, 0, 0],
    signer: null,
    claimedTime: dict.claimedTime,
    digestMatches: false,
    signatureValid: false,
    coversWholeFile: false,
    onlyDssAfter: false,
    coveredBy: [],
    timestamp: null,
    reason: dict.reason,
    location: dict.location,
    problem: null,
  };
  const none = { signerCert: undefined, tsaCert: undefined, at: undefined };
  const range = dict.byteRange;
  if (!rangesOk(pdf, range)) {
    return {
      facts: { ...facts, problem: 'its /ByteRange does not frame its /Contents within the file' },
      ...none,
    };
  }
  const [a, b, c, d] = range;
  facts.coversWholeFile = c + d === pdf.length;
  const digestOf = (hash: string) =>
    createHash(hash)
      .update(pdf.subarray(a, a + b))
      .update(pdf.subarray(c, c + d))
      .digest();

  if (kind === 'document timestamp') {
    const ts = await checkTimestampToken(dict.contents, digestOf, pool);
    const at = ts.genTime ? new Date(ts.genTime) : undefined;
    return {
      facts: {
        ...facts,
        signer: ts.certificate,
        claimedTime: ts.genTime || facts.claimedTime,
        digestMatches: ts.imprintMatches,
        signatureValid: ts.signatureValid && ts.timeStampingUsage,
        problem: ts.problem,
      },
      signerCert: ts.signerCert,
      tsaCert: undefined,
      at,
    };
  }

  try {
    const signed = parseSignedData(dict.contents);
    const signer = await checkSigner(signed, digestOf, pool);
    const tokenAttr = signer.signerInfo.unsignedAttrs?.attributes.find((x) => x.type === SIGNATURE_TIMESTAMP);
    const token = tokenAttr?.values[0] as asn1js.AsnType | undefined;
    // The signature timestamp stamps the signature value: the OCTET STRING's content.
    const signatureValue = Buffer.from(signer.signerInfo.signature.valueBlock.valueHexView);
    const ts = token
      ? await checkTimestampToken(
          new Uint8Array(token.toBER(false)),
          (hash) => createHash(hash).update(signatureValue).digest(),
          pool,
        )
      : undefined;
    const claimedTime = dict.claimedTime ?? signer.signingTime?.toISOString() ?? null;
    const { signerCert: tsaCert, ...timestamp } = ts ?? { signerCert: undefined };
    const stampOk = ts && !ts.problem;
    return {
      facts: {
        ...facts,
        signer: signer.signer ? factsOf(signer.signer) : null,
        claimedTime,
        digestMatches: signer.digestMatches,
        signatureValid: signer.signatureValid,
        timestamp: ts ? (timestamp as TSignatureFacts['timestamp']) : null,
        problem: signer.problem ?? null,
      },
      signerCert: signer.signer,
      tsaCert,
      at: stampOk ? new Date(ts.genTime) : claimedTime ? new Date(claimedTime) : undefined,
    };
  } catch (err) {
    return { facts: { ...facts, problem: `its CMS is unreadable: ${(err as Error).message}` }, ...none };
  }
}

const titleOf = (s: TSignatureFacts) =>
  `${s.kind === 'signature' ? 'Signature' : 'Document timestamp'} ${s.index}${s.signer ? ` (${cn(s.signer.subject)})` : ''}`;
const cn = (subject: string) => /(?:^|, )CN=([^,]*)/.exec(subject)?.[1] ?? subject;

const added = (n: number) => (n === 1 ? '1 byte was added' : `${n} bytes were added`);

const ASK_SENDER = 'Do not rely on this file: ask its sender for the file exactly as it was signed.';

function signatureChecks(s: TSignatureFacts, last: boolean, pdfLength: number): TCheck[] {
  const id = `signature-${s.index}`;
  const name = titleOf(s);
  const out: TCheck[] = [];
  const [, , c, d] = s.byteRange;
  if (s.problem?.startsWith('its /ByteRange') || s.problem?.startsWith('its CMS')) {
    return [{ id: `${id}.readable`, status: 'fail', title: `${name}: ${s.problem}.`, next: ASK_SENDER }];
  }
  out.push(
    s.digestMatches
      ? { id: `${id}.digest`, status: 'pass', title: `${name}: the bytes it signed are unchanged.` }
      : {
          id: `${id}.digest`,
          status: 'fail',
          title: `${name}: the bytes it signed were changed after signing.`,
          next: ASK_SENDER,
        },
  );
  out.push(
    s.signatureValid
      ? {
          id: `${id}.signature`,
          status: 'pass',
          title: `${name}: the signature holds with the key of ${s.signer?.subject ?? 'its certificate'}.`,
        }
      : {
          id: `${id}.signature`,
          status: 'fail',
          title: `${name}: the signature does not hold (${s.problem ?? 'unknown reason'}).`,
          next: ASK_SENDER,
        },
  );
  if (last) {
    out.push(
      s.coversWholeFile
        ? { id: `${id}.coverage`, status: 'pass', title: `${name}: it covers the whole file.` }
        : s.onlyDssAfter
          ? {
              id: `${id}.coverage`,
              status: 'pass',
              title: `${name}: after it only revocation data (a DSS) was added, which cannot change what the document shows.`,
            }
          : {
              id: `${id}.coverage`,
              status: 'fail',
              title: `${name}: it does not cover the whole file: ${added(pdfLength - (c + d))} after it, signed by no one.`,
              next: 'The added bytes can change what the document shows. Ask the sender for the file as it was sealed.',
            },
    );
  } else {
    out.push(
      s.coveredBy.length
        ? {
            id: `${id}.coverage`,
            status: 'pass',
            title: `${name}: what was added after it is covered by ${s.coveredBy.map((j) => `signature ${j}`).join(', ')}.`,
          }
        : {
            id: `${id}.coverage`,
            status: 'fail',
            title: `${name}: what was added after it is covered by no later signature.`,
            next: ASK_SENDER,
          },
    );
  }
  if (s.kind === 'signature') {
    const ts = s.timestamp;
    out.push(
      !ts
        ? {
            id: `${id}.timestamp`,
            status: 'info',
            title: `${name}: no signature timestamp (PAdES B-B): its time ${s.claimedTime ?? '(none given)'} is the signer's own claim.`,
          }
        : ts.problem
          ? {
              id: `${id}.timestamp`,
              status: 'fail',
              title: `${name}: its timestamp does not hold: ${ts.problem}.`,
              next: 'The signing time is not proven. Ask the sender for the file as it was sealed.',
            }
          : {
              id: `${id}.timestamp`,
              status: 'pass',
              title: `${name}: timestamped at ${ts.genTime} by ${ts.tsa}.`,
            },
    );
  } else {
    out.push({
      id: `${id}.time`,
      status: 'info',
      title: `${name}: stamped at ${s.claimedTime} by ${s.signer?.subject}.`,
    });
  }
  return out;
}

interface TChainRun {
  chain: TChain;
  facts: TChainFacts;
  at: Date | undefined;
}

async function chainFacts(
  index: number,
  leaf: TCert,
  what: string[],
  pool: CertPool,
  trusted: string[],
  dss: TPdfParts['dss'],
  online: boolean,
): Promise<TChainFacts & { chainObj: TChain }> {
  const chain = buildChain(leaf, pool.all());
  const revocation: TChainFacts['revocation'] = [];
  for (const cert of chain.certificates) {
    if (isSelfIssued(cert)) continue;
    const issuer = issuerIn(chain, cert);
    if (!issuer) {
      const unknown = { ...NO_DATA, source: "its issuer's certificate is not in the file" };
      revocation.push({ subject: factsOf(cert).subject, inFile: unknown, online: online ? unknown : null });
      continue;
    }
    const inFile = dss ? await revocationStatus(cert, issuer, dss) : NO_DATA;
    let fetched: TChainFacts['revocation'][number]['online'] = null;
    if (online) {
      const data = await fetchRevocationData(cert, issuer);
      fetched = { ...(await revocationStatus(cert, issuer, data)) };
      if (fetched.status === 'none' && data.problems.length)
        fetched.source = `unreachable: ${data.problems.join('; ')}`;
    }
    revocation.push({ subject: factsOf(cert).subject, inFile, online: fetched });
  }
  return {
    index,
    for: what.join(', '),
    certificates: chain.certificates.map(factsOf),
    complete: chain.complete,
    signaturesValid: chain.signaturesValid,
    trusted: trusted.length ? isTrusted(chain, trusted) : null,
    revocation,
    chainObj: chain,
  };
}

function chainChecks(run: TChainRun, online: boolean): TCheck[] {
  const { chain, facts, at } = run;
  const id = `chain-${facts.index}`;
  const name = `Certificates of ${facts.for}`;
  const out: TCheck[] = [];
  const last = chain.certificates.at(-1)!;
  const root = factsOf(last);
  if (!chain.signaturesValid) {
    out.push({
      id: `${id}.path`,
      status: 'fail',
      title: `${name}: a certificate's signature in the chain does not hold with its issuer's key.`,
      next: ASK_SENDER,
    });
  } else if (!chain.complete) {
    // Files often leave their root out (a timestamp token carries its authority's certificate
    // only): without a trust list that is for the person to settle, with one it is a failure.
    out.push({
      id: `${id}.path`,
      status: facts.trusted === null ? 'warn' : 'fail',
      title: `${name}: the chain stops at ${root.subject}: its issuer (${root.issuer}) is not in the file.`,
      next: "Get the issuer's certificate from a source you trust and pass it with --trust.",
    });
  } else {
    out.push({
      id: `${id}.path`,
      status: 'pass',
      title: `${name}: the chain ends at the self-signed root ${root.subject} (SHA-256 ${root.sha256}).`,
    });
  }
  if (facts.trusted === null) {
    out.push({
      id: `${id}.trust`,
      status: 'info',
      title: chain.complete
        ? `${name}: the root ${root.subject} was not checked against a trust list.`
        : `${name}: its root was not checked against a trust list.`,
      next: 'To check whose signature this is, pass the root certificate you trust with --trust root.pem.',
    });
  } else {
    out.push(
      facts.trusted
        ? {
            id: `${id}.trust`,
            status: 'pass',
            title: `${name}: the chain ends at a certificate on your trust list.`,
          }
        : {
            id: `${id}.trust`,
            status: 'fail',
            title: chain.complete
              ? `${name}: the root ${root.subject} (SHA-256 ${root.sha256}) is not on your trust list.`
              : `${name}: the chain reaches no certificate on your trust list.`,
            next: 'If you expected this signer, get its root certificate from a source you trust and pass it with --trust; otherwise do not rely on the file.',
          },
    );
  }
  if (at) {
    const outside = chain.certificates.filter(
      (c) => new Date(c.x509.validFrom) > at || new Date(c.x509.validTo) < at,
    );
    out.push(
      outside.length
        ? {
            id: `${id}.validity`,
            status: 'fail',
            title: `${name}: ${outside.map((c) => nameOf(c)).join(', ')} was not valid at ${at.toISOString()}.`,
            next: ASK_SENDER,
          }
        : {
            id: `${id}.validity`,
            status: 'pass',
            title: `${name}: every certificate was valid at ${at.toISOString()}.`,
          },
    );
  }
  out.push(...revocationChecks(facts, id, name, online));
  return out;
}

function revocationChecks(facts: TChainFacts, id: string, name: string, online: boolean): TCheck[] {
  if (facts.revocation.length === 0) {
    return [
      {
        id: `${id}.revocation`,
        status: 'info',
        title: `${name}: only a self-signed certificate, which no revocation data applies to.`,
      },
    ];
  }
  const out: TCheck[] = [];
  const revoked = facts.revocation.flatMap((r) =>
    [r.inFile, r.online]
      .filter((x) => x?.status === 'revoked')
      .map(
        (x) => `${cn(r.subject)} is revoked${x!.revokedAt ? ` since ${x!.revokedAt}` : ''} (${x!.source})`,
      ),
  );
  if (revoked.length) {
    out.push({
      id: `${id}.revocation`,
      status: 'fail',
      title: `${name}: ${revoked.join('; ')}.`,
      next: 'Ask the signer why the certificate was revoked; its signatures cannot be relied on.',
    });
    return out;
  }
  const missing = facts.revocation.filter((r) => r.inFile.status !== 'good');
  out.push(
    missing.length === 0
      ? {
          id: `${id}.revocation`,
          status: 'pass',
          title: `${name}: the file's revocation data says every certificate below the root was good (${facts.revocation.map((r) => `${cn(r.subject)}: ${r.inFile.source}`).join('; ')}).`,
        }
      : {
          id: `${id}.revocation`,
          status: 'warn',
          title: `${name}: the file carries no valid revocation data saying ${missing.map((r) => cn(r.subject)).join(', ')} was good${missing.some((r) => r.inFile.status === 'unknown') ? ' (a responder answered unknown)' : ''}.`,
          next: online
            ? 'See the online check below for what the CA says now.'
            : 'Run again with --online to ask the CA now.',
        },
  );
  if (online) {
    const notGood = facts.revocation.filter((r) => r.online?.status !== 'good');
    out.push(
      notGood.length === 0
        ? {
            id: `${id}.online`,
            status: 'pass',
            title: `${name}: the CAs say now that every certificate below the root is good.`,
          }
        : {
            id: `${id}.online`,
            status: 'warn',
            title: `${name}: no current answer that ${notGood.map((r) => `${cn(r.subject)} is good (${r.online?.source ?? r.online?.status})`).join('; ')}.`,
            next: 'Check your network access to the CA, or ask the signer how to check the certificate.',
          },
    );
  }
  return out;
}

/** The report on `pdf`. Throws UnreadablePdfError when it is not a PDF that can be parsed. */
export async function verifyPdf(pdf: Uint8Array, options: TVerifyOptions = {}): Promise<TVerifyReport> {
  const bytes = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  const parts = await readPdfParts(bytes);
  const pool = new CertPool();
  const trusted = (options.trust ?? []).map((der) => pool.add(der)?.sha256).filter((f): f is string => !!f);
  for (const der of parts.dss?.certs ?? []) pool.add(der);
  const online = Boolean(options.online);

  const checked: TChecked[] = [];
  for (const [i, dict] of parts.signatures.entries())
    checked.push(await checkSignature(bytes, dict, i + 1, pool));
  for (const s of checked) {
    const end = s.facts.byteRange[2] + s.facts.byteRange[3];
    if (s === checked.at(-1) && !s.facts.coversWholeFile && end > 0) {
      s.facts.onlyDssAfter = await onlyDssAdded(bytes, end);
    }
    s.facts.coveredBy = checked
      .filter((t) => t.facts.index > s.facts.index && t.facts.byteRange[0] === 0)
      .filter((t) => t.facts.byteRange[1] >= end && t.facts.digestMatches)
      .map((t) => t.facts.index);
  }

  const checks: TCheck[] = [];
  if (checked.length === 0) {
    checks.push({
      id: 'signatures',
      status: 'fail',
      title: 'The file carries no digital signature.',
      next: 'Nothing in it can be verified: ask its sender for the sealed file.',
    });
  }
  for (const s of checked) checks.push(...signatureChecks(s.facts, s === checked.at(-1), bytes.length));

  // One chain per certificate that signed something, named for everything it signed.
  const leaves = new Map<string, { cert: TCert; what: string[]; at: Date | undefined }>();
  const addLeaf = (cert: TCert | undefined, what: string, at: Date | undefined) => {
    if (!cert) return;
    const known = leaves.get(cert.sha256);
    if (known) known.what.push(what);
    else leaves.set(cert.sha256, { cert, what: [what], at });
  };
  for (const s of checked) {
    const label =
      s.facts.kind === 'signature' ? `signature ${s.facts.index}` : `document timestamp ${s.facts.index}`;
    addLeaf(s.signerCert, label, s.at);
    addLeaf(
      s.tsaCert,
      `the timestamp of signature ${s.facts.index}`,
      s.facts.timestamp?.genTime ? new Date(s.facts.timestamp.genTime) : undefined,
    );
  }
  const chains: TChainFacts[] = [];
  for (const [i, leaf] of [...leaves.values()].entries()) {
    const { chainObj, ...facts } = await chainFacts(
      i + 1,
      leaf.cert,
      leaf.what,
      pool,
      trusted,
      parts.dss,
      online,
    );
    chains.push(facts);
    checks.push(...chainChecks({ chain: chainObj, facts, at: leaf.at }, online));
  }

  const dss = parts.dss ? dssFacts(parts.dss, parts.signatures) : null;
  checks.push(
    dss
      ? {
          id: 'dss',
          status: 'info',
          title: `The file carries a DSS: ${dss.certs.length} certificates, ${dss.ocsps.length} OCSP responses, ${dss.crls.length} CRLs.`,
        }
      : {
          id: 'dss',
          status: 'info',
          title: 'The file carries no DSS (revocation data kept for the long term, PAdES B-LT).',
        },
  );
  const evidence = await evidenceRecordFacts(bytes, options.originals);
  checks.push(...evidence.checks);

  return {
    file: { sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.length },
    result: checks.some((c) => c.status === 'fail') ? 'fail' : 'pass',
    signatures: checked.map((s) => s.facts),
    chains,
    dss,
    evidenceRecord: evidence.facts,
    trustedRoots: trusted,
    online,
    checks,
  };
}
