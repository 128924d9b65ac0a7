// A B-LTA seal as validators we did not write read it (pikepdf, asn1crypto): every CMS and token
// in the file, and the DSS's OCSP answers and CRLs, are DER (a strict parser re-encodes each to the
// same bytes); the VRI entry is keyed on the SHA-1 of the whole /Contents as stored, padding
// included, as EU DSS and iText look it up; the seal's signed attributes carry CMS algorithm
// protection (RFC 6211) naming the SignerInfo's own algorithms. And the seal certificate's
// status is asked afresh at each seal: once the CA revokes it, the next seal is refused.
import 'reflect-metadata';
import { KeyObject, sign, X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadLocalCa, sealExtensions, type TLocalCa } from '#infra/local/local-ca';
import { startPkiStandin, type TPkiStandin } from '#infra/local/pki-standin';
import { startTsaStandin, type TTsaStandin } from '#infra/local/tsa-standin';
import { createEvidencePdf } from '#shared/adapters/pdf/evidence-pdf';
import type { TConfig } from '#shared/config';
import { ValidationDataUnavailableError } from '#shared/domain/errors';
import type { TSealSigner } from '#shared/pdf/seal-signer';
import { aPdf } from '../helpers/pdfs';
import { pythonOnPdf } from '../helpers/python';

let pki: TPkiStandin;
let ca: TLocalCa;
let tsa: TTsaStandin;

const info = { reason: 'Final document', name: 'Validator test' };
const configOf = (): TConfig => ({
  stage: 'test',
  region: 'us-east-1',
  tableName: '',
  bucketName: '',
  usagePlanId: '',
  logLevel: 'silent',
  endpoints: {},
  fetch: { allowHttp: true, allowLoopback: true },
  timestamps: { tsas: [{ url: tsa.url }] },
});

/** A seal signer whose certificate the local CA issued, naming its OCSP responder and CRL, as the local seal's does. */
async function issuedSeal(commonName: string): Promise<TSealSigner> {
  const issued = await ca.issue(`CN=${commonName}`, [
    ...sealExtensions(),
    ...ca.revocationExtensions({ ocsp: true }),
  ]);
  const key = KeyObject.from(issued.privateKey);
  return {
    commonName,
    chain: [Buffer.from(issued.certificate.rawData), Buffer.from(ca.root.rawData)],
    algorithm: 'ECDSA_SHA_256',
    sign: async (data) => sign('sha256', data, key),
  };
}

// Reads the file with pikepdf: each signature field's /Contents as stored, the DSS, and for every
// ASN.1 object whether asn1crypto re-encodes it (DER, recursively: tokens and TSTInfos included)
// to the very bytes it read.
const READ_WITH_PYTHON = `
import sys, json, hashlib, pikepdf
from asn1crypto import cms, ocsp, crl, tsp

pdf = pikepdf.open(sys.argv[1])
root = pdf.Root

def der_ok(cls, data):
    try:
        parsed = cls.load(data)
        return parsed.dump(force=True) == data
    except Exception as err:
        return 'refused: %s' % err

signatures = []
for field in root.AcroForm.Fields:
    value = field.get('/V')
    if value is None or '/ByteRange' not in value:
        continue
    contents = bytes(value.Contents)
    ci = cms.ContentInfo.load(contents, strict=False)
    der = ci.dump()
    entry = {
        'type': str(value.get('/Type')),
        'sha1': hashlib.sha1(contents).hexdigest().upper(),
        'padding': len(contents) - len(der),
        'der': der_ok(cms.ContentInfo, der),
    }
    sd = ci['content']
    if sd['encap_content_info']['content'].native is not None:
        tst = sd['encap_content_info']['content'].contents
        entry['tstInfo'] = der_ok(tsp.TSTInfo, tst)
    si = sd['signer_infos'][0]
    for attr in si['signed_attrs'] or []:
        if attr['type'].native == 'cms_algorithm_protection':
            protection = attr['values'][0]
            entry['protection'] = {
                'digest': protection['digest_algorithm'].dump() == si['digest_algorithm'].dump(),
                'signature': protection['signature_algorithm'].contents == si['signature_algorithm'].contents,
                'signatureAlgorithm': protection['signature_algorithm']['algorithm'].native,
                'digestAlgorithm': protection['digest_algorithm']['algorithm'].native,
            }
    tokens = []
    for attr in si['unsigned_attrs'] or []:
        if attr['type'].native == 'signature_time_stamp_token':
            token = attr['values'][0]
            tokens.append({
                'der': der_ok(cms.ContentInfo, token.dump()),
                'tstInfo': der_ok(tsp.TSTInfo, token['content']['encap_content_info']['content'].contents),
            })
    entry['tokens'] = tokens
    signatures.append(entry)

dss = root.DSS
streams = lambda key: [bytes(s.read_bytes()) for s in dss.get(key, [])]
print(json.dumps({
    'signatures': signatures,
    'vriKeys': [str(k).lstrip('/').upper() for k in dss.VRI.keys()],
    'ocsps': [der_ok(ocsp.OCSPResponse, b) for b in streams('/OCSPs')],
    'crls': [der_ok(crl.CertificateList, b) for b in streams('/CRLs')],
}))
`;

interface TPythonView {
  signatures: {
    type: string;
    sha1: string;
    padding: number;
    der: boolean | string;
    tstInfo?: boolean | string;
    protection?: {
      digest: boolean;
      signature: boolean;
      signatureAlgorithm: string;
      digestAlgorithm: string;
    };
    tokens: { der: boolean | string; tstInfo: boolean | string }[];
  }[];
  vriKeys: string[];
  ocsps: (boolean | string)[];
  crls: (boolean | string)[];
}

beforeAll(async () => {
  pki = await startPkiStandin();
  ca = await loadLocalCa(undefined, { pkiUrl: pki.url });
  pki.serve(ca);
  tsa = await startTsaStandin({ ca });
});
afterAll(async () => {
  await tsa?.stop();
  await pki?.stop();
});

describe('a B-LTA seal, read with pikepdf and asn1crypto', () => {
  let view: TPythonView;
  beforeAll(async () => {
    const signer = await issuedSeal('Validator test seal');
    const sealed = await createEvidencePdf({ get: async () => signer }, configOf()).seal(await aPdf(), info);
    view = pythonOnPdf<TPythonView>(READ_WITH_PYTHON, sealed);
    // The first seal of a process loads the timestamp, validation and PDF modules: slow on a busy machine.
  }, 240_000);

  it('writes every CMS, timestamp token, TSTInfo, OCSP answer and CRL in DER', () => {
    const [seal, archive] = view.signatures;
    expect(view.signatures).toHaveLength(2);
    expect(seal).toMatchObject({ der: true, tokens: [{ der: true, tstInfo: true }] });
    expect(archive).toMatchObject({ type: '/DocTimeStamp', der: true, tstInfo: true });
    // The seal's certificate names the responder, the authority's only the CRL: one of each.
    expect(view.ocsps).toEqual([true]);
    expect(view.crls).toEqual([true]);
  });

  it('keys the VRI entry on the SHA-1 of the seal’s whole /Contents, its zero padding included', () => {
    const [seal] = view.signatures;
    expect(seal!.padding).toBeGreaterThan(0);
    expect(view.vriKeys).toEqual([seal!.sha1]);
  });

  it('protects the seal’s algorithms with the RFC 6211 attribute, naming the SignerInfo’s own', () => {
    expect(view.signatures[0]!.protection).toEqual({
      digest: true,
      signature: true,
      digestAlgorithm: 'sha256',
      signatureAlgorithm: 'sha256_ecdsa',
    });
  });
});

describe('the seal certificate’s status', () => {
  it('is asked afresh at each seal: once revoked, the next seal is refused, not given a kept "good" answer', async () => {
    const signer = await issuedSeal('Seal revoked between two seals');
    const evidence = createEvidencePdf({ get: async () => signer }, configOf());
    await evidence.seal(await aPdf(), info);
    // The operator revokes the seal certificate (seal-revoke), seconds after a seal that asked.
    ca.revoke(new X509Certificate(signer.chain[0]!).serialNumber);
    const refused = await evidence.seal(await aPdf(), info).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(ValidationDataUnavailableError);
    expect((refused as ValidationDataUnavailableError).failures).toEqual([
      { certificate: 'CN=Seal revoked between two seals', reason: 'revoked (OCSP)' },
    ]);
  });
});
