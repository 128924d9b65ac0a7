// Verifies a signed PDF from the file alone, offline: every signature and document timestamp in
// it, the chains of their certificates, and the revocation data its DSS carries (PAdES B-B to
// B-LTA, ETSI EN 319 142-1). Nothing of the service is asked, so anyone can check a file decades
// after the service is gone; with `online`, the CAs are also asked for revocation data now.
import { createHash } from 'node:crypto';
import type * as asn1js from 'asn1js';
import { CertPool, factsOf, nameOf, type TCert } from './certificates';
import { buildChain, isSelfIssued, issuerIn, isTrusted, type TChain } from './chains';
import { sentence, type TWords, type TWordValue, words } from './check-words';
import { checkSigner, parseSignedData } from './cms-signer';
import { dssFacts } from './dss-facts';
import { evidenceRecordFacts } from './evidence-record-facts';
import { onlyDssAdded } from './later-changes';
import { fetchRevocationData } from './online-revocation';
import { readPdfParts, type TPdfParts, type TSignatureDict } from './pdf-signatures';
import {
  check,
  type TChainFacts,
  type TCheck,
  type TRevocationFacts,
  type TSignatureFacts,
  type TVerifyReport,
} from './report';
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
  /** Why the signature could not even be read (its facts' `problem` in English). */
  unreadable?: TWords;
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
  // The problem is the sentence without the signature's name in front and the full stop, as the
  // facts have always said it. Said with a stand-in for the name, so a name holding ": " (a
  // certificate's subject may) cannot move the cut.
  const unreadable = (said: TWords) => ({
    facts: {
      ...facts,
      problem: sentence({ ...said, values: { ...said.values, name: NAME_STAND_IN } })
        .replace(`${NAME_STAND_IN}: `, '')
        .replace(/\.$/, ''),
    },
    ...none,
    unreadable: said,
  });
  const name = signatureName(facts);
  const range = dict.byteRange;
  if (!rangesOk(pdf, range)) return unreadable(words(`${K}byteRangeBad`, { name }));
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
    return unreadable(words(`${K}cmsUnreadable`, { name, error: (err as Error).message }));
  }
}

const K = 'verify.checks.';
/** Where a signature's name goes in a sentence the facts keep without it (a private-use character). */
const NAME_STAND_IN = '\uE002';
const cn = (subject: string) => /(?:^|, )CN=([^,]*)/.exec(subject)?.[1] ?? subject;

/** "Signature 2 (Jane Roe)", "Document timestamp 3": how each check of a signature begins. */
const signatureName = (s: TSignatureFacts): TWords => {
  const named: Record<string, TWordValue> = s.signer
    ? { index: s.index, signer: cn(s.signer.subject) }
    : { index: s.index };
  if (s.kind === 'signature') return words(s.signer ? `${K}signatureNamed` : `${K}signature`, named);
  return words(s.signer ? `${K}documentTimestampNamed` : `${K}documentTimestamp`, named);
};

const ASK_SENDER = words(`${K}askSender`);

function signatureChecks(c: TChecked, last: boolean, pdfLength: number): TCheck[] {
  const s = c.facts;
  const id = `signature-${s.index}`;
  const name = signatureName(s);
  const out: TCheck[] = [];
  const [, , rc, rd] = s.byteRange;
  if (c.unreadable) return [check(`${id}.readable`, 'fail', c.unreadable, ASK_SENDER)];
  out.push(
    s.digestMatches
      ? check(`${id}.digest`, 'pass', words(`${K}digestUnchanged`, { name }))
      : check(`${id}.digest`, 'fail', words(`${K}digestChanged`, { name }), ASK_SENDER),
  );
  out.push(
    s.signatureValid
      ? check(
          `${id}.signature`,
          'pass',
          s.signer
            ? words(`${K}signatureHolds`, { name, subject: s.signer.subject })
            : words(`${K}signatureHoldsUnnamed`, { name }),
        )
      : check(
          `${id}.signature`,
          'fail',
          s.problem
            ? words(`${K}signatureFails`, { name, problem: s.problem })
            : words(`${K}signatureFailsUnknown`, { name }),
          ASK_SENDER,
        ),
  );
  if (last) {
    out.push(
      s.coversWholeFile
        ? check(`${id}.coverage`, 'pass', words(`${K}coversWholeFile`, { name }))
        : s.onlyDssAfter
          ? check(`${id}.coverage`, 'pass', words(`${K}onlyDssAfter`, { name }))
          : check(
              `${id}.coverage`,
              'fail',
              words(`${K}bytesAdded`, { name, count: pdfLength - (rc + rd) }),
              words(`${K}bytesAddedNext`),
            ),
    );
  } else {
    out.push(
      s.coveredBy.length
        ? check(
            `${id}.coverage`,
            'pass',
            words(`${K}coveredBy`, {
              name,
              signatures: {
                list: s.coveredBy.map((j) => words(`${K}signatureRef`, { index: j })),
                joiner: ', ',
              },
            }),
          )
        : check(`${id}.coverage`, 'fail', words(`${K}coveredByNone`, { name }), ASK_SENDER),
    );
  }
  if (s.kind === 'signature') {
    const ts = s.timestamp;
    out.push(
      !ts
        ? check(
            `${id}.timestamp`,
            'info',
            s.claimedTime
              ? words(`${K}noTimestamp`, { name, time: { time: s.claimedTime } })
              : words(`${K}noTimestampNoTime`, { name }),
          )
        : ts.problem
          ? check(
              `${id}.timestamp`,
              'fail',
              words(`${K}timestampFails`, { name, problem: ts.problem }),
              words(`${K}timestampFailsNext`),
            )
          : check(
              `${id}.timestamp`,
              'pass',
              words(`${K}timestamped`, { name, time: { time: ts.genTime }, tsa: ts.tsa }),
            ),
    );
  } else {
    out.push(
      check(
        `${id}.time`,
        'info',
        words(`${K}stamped`, {
          name,
          time: s.claimedTime ? { time: s.claimedTime } : String(s.claimedTime),
          subject: String(s.signer?.subject),
        }),
      ),
    );
  }
  return out;
}

interface TChainRun {
  chain: TChain;
  facts: TChainFacts;
  /** What the chain's first certificate signed (`facts.for` in words). */
  what: TWords[];
  at: Date | undefined;
}

async function chainFacts(
  index: number,
  leaf: TCert,
  what: TWords[],
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
      const said = words(`${K}sourceIssuerMissing`);
      const unknown = { ...NO_DATA, source: sentence(said), sourceSaid: said };
      revocation.push({ subject: factsOf(cert).subject, inFile: unknown, online: online ? unknown : null });
      continue;
    }
    const inFile = dss ? await revocationStatus(cert, issuer, dss) : NO_DATA;
    let fetched: TChainFacts['revocation'][number]['online'] = null;
    if (online) {
      const data = await fetchRevocationData(cert, issuer);
      fetched = { ...(await revocationStatus(cert, issuer, data)) };
      if (fetched.status === 'none' && data.problems.length) {
        fetched.sourceSaid = words(`${K}sourceUnreachable`, { problems: data.problems.join('; ') });
        fetched.source = sentence(fetched.sourceSaid);
      }
    }
    revocation.push({ subject: factsOf(cert).subject, inFile, online: fetched });
  }
  return {
    index,
    for: what.map(sentence).join(', '),
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
  const name = words(`${K}chain`, { what: { list: run.what, joiner: ', ' } });
  const out: TCheck[] = [];
  const last = chain.certificates.at(-1)!;
  const root = factsOf(last);
  if (!chain.signaturesValid) {
    out.push(check(`${id}.path`, 'fail', words(`${K}chainBroken`, { name }), ASK_SENDER));
  } else if (!chain.complete) {
    // Files often leave their root out (a timestamp token carries its authority's certificate
    // only): without a trust list that is for the person to settle, with one it is a failure.
    out.push(
      check(
        `${id}.path`,
        facts.trusted === null ? 'warn' : 'fail',
        words(`${K}chainStops`, { name, subject: root.subject, issuer: root.issuer }),
        words(`${K}chainStopsNext`),
      ),
    );
  } else {
    out.push(
      check(
        `${id}.path`,
        'pass',
        words(`${K}chainRoot`, { name, subject: root.subject, sha256: root.sha256 }),
      ),
    );
  }
  if (facts.trusted === null) {
    out.push(
      check(
        `${id}.trust`,
        'info',
        chain.complete
          ? words(`${K}rootUnchecked`, { name, subject: root.subject })
          : words(`${K}rootUncheckedMissing`, { name }),
        words(`${K}rootUncheckedNext`),
      ),
    );
  } else {
    out.push(
      facts.trusted
        ? check(`${id}.trust`, 'pass', words(`${K}trusted`, { name }))
        : check(
            `${id}.trust`,
            'fail',
            chain.complete
              ? words(`${K}rootUntrusted`, { name, subject: root.subject, sha256: root.sha256 })
              : words(`${K}untrusted`, { name }),
            words(`${K}untrustedNext`),
          ),
    );
  }
  if (at) {
    const outside = chain.certificates.filter(
      (c) => new Date(c.x509.validFrom) > at || new Date(c.x509.validTo) < at,
    );
    const time = { time: at.toISOString() };
    out.push(
      outside.length
        ? check(
            `${id}.validity`,
            'fail',
            words(`${K}notValid`, {
              name,
              count: outside.length,
              certificates: { list: outside.map((c) => nameOf(c)), joiner: ', ' },
              time,
            }),
            ASK_SENDER,
          )
        : check(`${id}.validity`, 'pass', words(`${K}allValid`, { name, time })),
    );
  }
  out.push(...revocationChecks(facts, id, name, online));
  return out;
}

/** Where a revocation answer came from, in words (a status when there was none). */
const sourceOf = (r: TRevocationFacts | null): TWordValue => r?.sourceSaid ?? r?.source ?? String(r?.status);

function revocationChecks(facts: TChainFacts, id: string, name: TWords, online: boolean): TCheck[] {
  if (facts.revocation.length === 0) {
    return [check(`${id}.revocation`, 'info', words(`${K}selfSignedOnly`, { name }))];
  }
  const out: TCheck[] = [];
  const revoked = facts.revocation.flatMap((r) =>
    [r.inFile, r.online]
      .filter((x) => x?.status === 'revoked')
      .map((x) =>
        x!.revokedAt
          ? words(`${K}revokedSince`, {
              subject: cn(r.subject),
              time: { time: x!.revokedAt },
              source: sourceOf(x),
            })
          : words(`${K}revoked`, { subject: cn(r.subject), source: sourceOf(x) }),
      ),
  );
  if (revoked.length) {
    out.push(
      check(
        `${id}.revocation`,
        'fail',
        words(`${K}revocations`, { name, revoked: { list: revoked, joiner: '; ' } }),
        words(`${K}revokedNext`),
      ),
    );
    return out;
  }
  const missing = facts.revocation.filter((r) => r.inFile.status !== 'good');
  const subjects = (rs: TChainFacts['revocation']) => ({
    list: rs.map((r) => cn(r.subject)),
    joiner: ', ' as const,
  });
  out.push(
    missing.length === 0
      ? check(
          `${id}.revocation`,
          'pass',
          words(`${K}revocationGood`, {
            name,
            answers: {
              list: facts.revocation.map((r) =>
                words(`${K}answer`, { subject: cn(r.subject), source: sourceOf(r.inFile) }),
              ),
              joiner: '; ',
            },
          }),
        )
      : check(
          `${id}.revocation`,
          'warn',
          words(
            missing.some((r) => r.inFile.status === 'unknown')
              ? `${K}revocationMissingUnknown`
              : `${K}revocationMissing`,
            { name, count: missing.length, subjects: subjects(missing) },
          ),
          words(online ? `${K}revocationMissingOnlineNext` : `${K}revocationMissingNext`),
        ),
  );
  if (online) {
    const notGood = facts.revocation.filter((r) => r.online?.status !== 'good');
    out.push(
      notGood.length === 0
        ? check(`${id}.online`, 'pass', words(`${K}onlineGood`, { name }))
        : check(
            `${id}.online`,
            'warn',
            words(`${K}onlineNotGood`, {
              name,
              answers: {
                list: notGood.map((r) =>
                  words(`${K}onlineAnswer`, { subject: cn(r.subject), source: sourceOf(r.online) }),
                ),
                joiner: '; ',
              },
            }),
            words(`${K}onlineNotGoodNext`),
          ),
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
    checks.push(check('signatures', 'fail', words(`${K}noSignature`), words(`${K}noSignatureNext`)));
  }
  for (const s of checked) checks.push(...signatureChecks(s, s === checked.at(-1), bytes.length));
  // Signature dictionaries no field refers to sign nothing a reader shows (an original's usage
  // rights kept by an older final document, say): a fact, not a failure of the file.
  if (parts.unreferenced > 0) {
    checks.push(
      check(
        'unreferenced-signatures',
        'info',
        words(`${K}unreferencedSignatures`, { found: parts.unreferenced }),
      ),
    );
  }

  // One chain per certificate that signed something, named for everything it signed.
  const leaves = new Map<string, { cert: TCert; what: TWords[]; at: Date | undefined }>();
  const addLeaf = (cert: TCert | undefined, what: TWords, at: Date | undefined) => {
    if (!cert) return;
    const known = leaves.get(cert.sha256);
    if (known) known.what.push(what);
    else leaves.set(cert.sha256, { cert, what: [what], at });
  };
  for (const s of checked) {
    const index = s.facts.index;
    const label = words(s.facts.kind === 'signature' ? `${K}signatureRef` : `${K}documentTimestampRef`, {
      index,
    });
    addLeaf(s.signerCert, label, s.at);
    addLeaf(
      s.tsaCert,
      words(`${K}timestampOfRef`, { index }),
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
    checks.push(...chainChecks({ chain: chainObj, facts, what: leaf.what, at: leaf.at }, online));
  }

  const dss = parts.dss ? dssFacts(parts.dss, parts.signatures) : null;
  checks.push(
    dss
      ? check(
          'dss',
          'info',
          words(`${K}dss`, {
            contents: {
              list: [
                words(`${K}dssCertificates`, { count: dss.certs.length }),
                words(`${K}dssOcsps`, { count: dss.ocsps.length }),
                words(`${K}dssCrls`, { count: dss.crls.length }),
              ],
              joiner: ', ',
            },
          }),
        )
      : check('dss', 'info', words(`${K}noDss`)),
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
