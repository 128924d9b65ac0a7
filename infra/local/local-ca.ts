// The local runtime's small certificate authority: a root, and under it the certificate of the
// local timestamp authority (extended key usage timeStamping, critical, as RFC 3161 requires)
// and, from a request signed in the KMS stand-in, the local seal certificate (issueFromCsr).
// Kept in a folder of the data directory so tokens stamped before a restart still chain to the
// same root; in memory when no folder is given. ECDSA P-256 throughout.
// It also keeps what a real CA publishes for revocation: the serials it revoked (`revoked.json`,
// which the operator's revoke command writes and the running responder re-reads), signed into a
// CRL and into OCSP answers by pki-standin.ts; the certificates it issues name where those are.
// @peculiar/x509 resolves its parsers through tsyringe, which needs the Reflect metadata API.
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

type CryptoKey = webcrypto.CryptoKey;
type CryptoKeyPair = webcrypto.CryptoKeyPair;

const ALG = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const FILE = 'local-ca.json';
const REVOKED_FILE = 'revoked.json';
/** How long a CRL or an OCSP answer of the local CA is fresh. */
const FRESH_MS = 24 * 3600 * 1000;
const YEAR_MS = 365 * 24 * 3600 * 1000;

export interface TIssuedIdentity {
  certificate: x509.X509Certificate;
  privateKey: CryptoKey;
}

export interface TLocalCa {
  root: x509.X509Certificate;
  /** The root's key (tests: a signature by another key than the certificate it names). */
  rootKey: CryptoKey;
  /** The timestamp authority's certificate and key. */
  tsa: TIssuedIdentity;
  /** Issues another end-entity certificate under the root (tests: a certificate that lacks a usage). */
  issue(subject: string, extensions: x509.Extension[]): Promise<TIssuedIdentity>;
  /** Where the CA publishes (pki-standin.ts), when it does. */
  pkiUrl?: string;
  /**
   * What an issued certificate carries to say where its status is published: the root's
   * certificate (caIssuers), the CRL, and with `ocsp` the OCSP responder too. None without pkiUrl.
   */
  revocationExtensions(opts: { ocsp: boolean }): x509.Extension[];
  /** Revokes a certificate the CA issued (hexadecimal serial); revoking twice keeps the first time. */
  revoke(serial: string, reason?: x509.X509CrlReason, at?: Date): TRevocation;
  /** The revocations, as the folder holds them now. */
  revocations(): TRevocation[];
  /** A CRL of every revocation, signed by the root, fresh for a day. */
  crl(now?: Date): Promise<x509.X509Crl>;
  /**
   * Issues an end-entity certificate for the key and subject of a PKCS #10 request (PEM), once its
   * signature proves the requester holds the key; with `extensions` (e.g. sealExtensions()).
   */
  issueFromCsr(csrPem: string, extensions: x509.Extension[]): Promise<x509.X509Certificate>;
}

export interface TRevocation {
  /** Hexadecimal, lower case, without leading zeros. */
  serial: string;
  at: string;
  reason: x509.X509CrlReason;
}

export const PKI_PATHS = { root: '/root.crt', crl: '/root.crl', ocsp: '/ocsp' } as const;

/** Serial numbers compared as numbers: hex in any case, with or without leading zeros. */
export const normalSerial = (hex: string) => hex.toLowerCase().replace(/^0+(?=.)/, '');

interface TStored {
  root: { certificate: string; privateKey: string };
  tsa: { certificate: string; privateKey: string };
}

const serial = () =>
  Buffer.from(webcrypto.getRandomValues(new Uint8Array(16)))
    .toString('hex')
    .replace(/^[89a-f]/, '1');

async function importKey(pkcs8Base64: string): Promise<CryptoKey> {
  return webcrypto.subtle.importKey('pkcs8', Buffer.from(pkcs8Base64, 'base64'), ALG, true, [
    'sign',
  ]) as Promise<CryptoKey>;
}

async function exportKey(key: CryptoKey): Promise<string> {
  return Buffer.from(await webcrypto.subtle.exportKey('pkcs8', key)).toString('base64');
}

async function newRoot(): Promise<TIssuedIdentity> {
  const keys = (await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify'])) as CryptoKeyPair;
  const now = Date.now();
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: 'CN=Open eSignature local root CA, O=Local runtime',
    notBefore: new Date(now - 3600_000),
    notAfter: new Date(now + 20 * YEAR_MS),
    keys,
    signingAlgorithm: ALG,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { certificate, privateKey: keys.privateKey };
}

async function issueUnder(
  root: TIssuedIdentity,
  subject: string,
  extensions: x509.Extension[],
): Promise<TIssuedIdentity> {
  const keys = (await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify'])) as CryptoKeyPair;
  const certificate = await certify(root, keys.publicKey, subject, extensions);
  return { certificate, privateKey: keys.privateKey };
}

/** An end-entity certificate for `publicKey` under the root, for ten years. */
async function certify(
  root: TIssuedIdentity,
  publicKey: CryptoKey | x509.PublicKey,
  subject: string | x509.Name,
  extensions: x509.Extension[],
): Promise<x509.X509Certificate> {
  const now = Date.now();
  return x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject: typeof subject === 'string' ? subject : subject.toString(),
    issuer: root.certificate.subject,
    notBefore: new Date(now - 3600_000),
    notAfter: new Date(now + 10 * YEAR_MS),
    publicKey,
    signingKey: root.privateKey,
    signingAlgorithm: ALG,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      await x509.SubjectKeyIdentifierExtension.create(publicKey),
      await x509.AuthorityKeyIdentifierExtension.create(root.certificate),
      ...extensions,
    ],
  });
}

async function issueFromCsr(
  root: TIssuedIdentity,
  csrPem: string,
  extensions: x509.Extension[],
): Promise<x509.X509Certificate> {
  const csr = new x509.Pkcs10CertificateRequest(csrPem);
  if (!(await csr.verify())) throw new Error('The certificate request is not signed by its own key');
  return certify(root, csr.publicKey, csr.subjectName, extensions);
}

/** What a timestamp authority's certificate carries: signing only, for timestamps only. */
export const tsaExtensions = () => [
  new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
  new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.timeStamping], true),
];

/**
 * What a seal certificate carries: signatures that stand as the organisation's (digitalSignature
 * and nonRepudiation, critical), and no extended key usage, which PDF readers take as any use.
 */
export const sealExtensions = () => [
  new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.nonRepudiation, true),
];

/** Whether `certificate` names `pkiUrl`'s CRL (made for this publication point). */
export function publishedAt(certificate: x509.X509Certificate, pkiUrl: string | undefined): boolean {
  if (!pkiUrl) return true;
  const dp = certificate.getExtension(x509.CRLDistributionPointsExtension);
  return Boolean(
    dp?.distributionPoints.some((p) =>
      p.distributionPoint?.fullName?.some((n) => n.uniformResourceIdentifier === `${pkiUrl}${PKI_PATHS.crl}`),
    ),
  );
}

/**
 * The CA kept in `dir` (made on first use), or a throwaway one in memory. With `pkiUrl`, the
 * certificates it issues point there for their status; a stored TSA certificate that points
 * elsewhere (the responder moved to another port) is issued again.
 */
export async function loadLocalCa(dir?: string, opts: { pkiUrl?: string } = {}): Promise<TLocalCa> {
  const { pkiUrl } = opts;
  const revocationExtensions = ({ ocsp }: { ocsp: boolean }): x509.Extension[] =>
    pkiUrl
      ? [
          new x509.CRLDistributionPointsExtension([`${pkiUrl}${PKI_PATHS.crl}`]),
          new x509.AuthorityInfoAccessExtension({
            caIssuers: `${pkiUrl}${PKI_PATHS.root}`,
            ...(ocsp ? { ocsp: `${pkiUrl}${PKI_PATHS.ocsp}` } : {}),
          }),
        ]
      : [];
  // The TSA answers through its CRL, the seal through OCSP: both kinds of revocation data are made.
  const tsaCertificateExtensions = () => [...tsaExtensions(), ...revocationExtensions({ ocsp: false })];
  let root: TIssuedIdentity;
  let tsa: TIssuedIdentity;
  let stored: TStored | undefined;
  if (dir) {
    try {
      stored = JSON.parse(readFileSync(join(dir, FILE), 'utf8')) as TStored;
    } catch {
      stored = undefined;
    }
  }
  if (stored) {
    root = {
      certificate: new x509.X509Certificate(stored.root.certificate),
      privateKey: await importKey(stored.root.privateKey),
    };
    tsa = {
      certificate: new x509.X509Certificate(stored.tsa.certificate),
      privateKey: await importKey(stored.tsa.privateKey),
    };
    if (!publishedAt(tsa.certificate, pkiUrl)) {
      tsa = await issueUnder(
        root,
        'CN=Open eSignature local timestamp authority, O=Local runtime',
        tsaCertificateExtensions(),
      );
      if (dir) await save(dir, root, tsa);
    }
  } else {
    root = await newRoot();
    tsa = await issueUnder(
      root,
      'CN=Open eSignature local timestamp authority, O=Local runtime',
      tsaCertificateExtensions(),
    );
    if (dir) await save(dir, root, tsa);
  }
  const inMemory: TRevocation[] = [];
  const revocations = (): TRevocation[] => {
    if (!dir) return inMemory;
    try {
      return JSON.parse(readFileSync(join(dir, REVOKED_FILE), 'utf8')) as TRevocation[];
    } catch {
      return [];
    }
  };
  return {
    root: root.certificate,
    rootKey: root.privateKey,
    tsa,
    issue: (subject, extensions) => issueUnder(root, subject, extensions),
    ...(pkiUrl ? { pkiUrl } : {}),
    revocationExtensions,
    revocations,
    revoke(serial, reason = x509.X509CrlReason.keyCompromise, at = new Date()) {
      const list = revocations();
      const known = list.find((r) => r.serial === normalSerial(serial));
      if (known) return known;
      const entry: TRevocation = { serial: normalSerial(serial), at: at.toISOString(), reason };
      if (dir) {
        mkdirSync(dir, { recursive: true });
        writeFileSync(join(dir, REVOKED_FILE), `${JSON.stringify([...list, entry], null, 2)}\n`);
      } else inMemory.push(entry);
      return entry;
    },
    async crl(now = new Date()) {
      return x509.X509CrlGenerator.create({
        issuer: root.certificate.subject,
        thisUpdate: now,
        nextUpdate: new Date(now.getTime() + FRESH_MS),
        entries: revocations().map((r) => ({
          serialNumber: r.serial.length % 2 ? `0${r.serial}` : r.serial,
          revocationDate: new Date(r.at),
          reason: r.reason,
        })),
        extensions: [await x509.AuthorityKeyIdentifierExtension.create(root.certificate)],
        signingKey: root.privateKey,
        signingAlgorithm: ALG,
      });
    },
    issueFromCsr: (csrPem, extensions) => issueFromCsr(root, csrPem, extensions),
  };
}

async function save(dir: string, root: TIssuedIdentity, tsa: TIssuedIdentity) {
  mkdirSync(dir, { recursive: true });
  const file: TStored = {
    root: { certificate: root.certificate.toString('pem'), privateKey: await exportKey(root.privateKey) },
    tsa: { certificate: tsa.certificate.toString('pem'), privateKey: await exportKey(tsa.privateKey) },
  };
  writeFileSync(join(dir, FILE), `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
}
