// A local stand-in of AWS KMS for asymmetric signing keys, so the seal is made locally by the
// same KMS adapter as on AWS (shared/adapters/sealing/kms-seal-identity.ts). It speaks the KMS
// JSON 1.1 protocol as the SDK v3 KMSClient sends it (POST /, X-Amz-Target: TrentService.<op>,
// base64 blobs, errors as {"__type", "message"}) for CreateKey, CreateAlias, DescribeKey,
// GetPublicKey, Sign and Verify. Keys live in one file of the data folder (mode 0600) and no
// operation returns private key material: like KMS, the key is used here and never handed out.
// It checks no credentials, so it listens on loopback only.
import {
  constants,
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  privateEncrypt,
  publicDecrypt,
  randomBytes,
  randomUUID,
  sign,
  verify,
} from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname } from 'node:path';
import { signP256Digest, verifyP256Digest } from './kms-ecdsa';

/** The account KMS ARNs name locally (AWS's documentation account). */
export const LOCAL_AWS_ACCOUNT = '000000000000';

const RSA_SPECS: Record<string, number> = { RSA_2048: 2048, RSA_3072: 3072, RSA_4096: 4096 };
const KEY_SPECS = [...Object.keys(RSA_SPECS), 'ECC_NIST_P256'];
/** The algorithms a seal uses; the stand-in offers no others (KMS offers more, e.g. PSS). */
const ALGORITHM_OF = (spec: string) =>
  spec === 'ECC_NIST_P256' ? 'ECDSA_SHA_256' : 'RSASSA_PKCS1_V1_5_SHA_256';
/** DER of DigestInfo { sha256, NULL } up to the digest: what PKCS #1 v1.5 signs (RFC 8017 §9.2). */
const SHA256_DIGEST_INFO = Buffer.from('3031300d060960864801650304020105000420', 'hex');
const MAX_RAW_MESSAGE = 4096;

interface TStoredKey {
  keySpec: string;
  keyUsage: 'SIGN_VERIFY';
  description: string;
  createdAt: number;
  tags: { TagKey: string; TagValue: string }[];
  /** PKCS #8 DER, base64: only ever read by this file. */
  privateKey: string;
}

interface TState {
  keys: Record<string, TStoredKey>;
  /** alias/name → key id. */
  aliases: Record<string, string>;
}

/** A KMS error: its __type is what the SDK turns into the exception class of that name. */
class KmsError extends Error {
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

export interface TKmsStandin {
  endpoint: string;
  bound: AddressInfo;
  stop(): Promise<void>;
}

export async function startKmsStandin(
  opts: { file?: string; port?: number; region?: string } = {},
): Promise<TKmsStandin> {
  const region = opts.region ?? 'us-east-1';
  const arnOf = (id: string) => `arn:aws:kms:${region}:${LOCAL_AWS_ACCOUNT}:key/${id}`;
  let memory: TState = { keys: {}, aliases: {} };

  // Read on every request: an operator command may have added a key through its own stand-in.
  const load = (): TState => {
    if (!opts.file) return memory;
    try {
      return JSON.parse(readFileSync(opts.file, 'utf8')) as TState;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { keys: {}, aliases: {} };
      throw err;
    }
  };
  const save = (state: TState) => {
    if (!opts.file) {
      memory = state;
      return;
    }
    mkdirSync(dirname(opts.file), { recursive: true });
    const tmp = `${opts.file}.tmp-${randomBytes(6).toString('hex')}`;
    writeFileSync(tmp, JSON.stringify(state, null, 2), { mode: 0o600 });
    renameSync(tmp, opts.file);
  };

  /** The key id a KeyId names: an id, a key ARN, an alias or an alias ARN. */
  function resolve(state: TState, keyId: unknown): string {
    if (typeof keyId !== 'string' || keyId === '')
      throw new KmsError('ValidationException', 'KeyId is required');
    const alias = /^(?:arn:aws:kms:[^:]*:\d+:)?(alias\/.+)$/.exec(keyId)?.[1];
    const id = alias ? state.aliases[alias] : (/key\/([^/]+)$/.exec(keyId)?.[1] ?? keyId);
    if (!id || !state.keys[id]) throw new KmsError('NotFoundException', `Key '${keyId}' does not exist`);
    return id;
  }

  const metadata = (id: string, key: TStoredKey) => ({
    AWSAccountId: LOCAL_AWS_ACCOUNT,
    KeyId: id,
    Arn: arnOf(id),
    CreationDate: key.createdAt,
    Enabled: true,
    Description: key.description,
    KeyUsage: key.keyUsage,
    KeyState: 'Enabled',
    Origin: 'AWS_KMS',
    KeyManager: 'CUSTOMER',
    KeySpec: key.keySpec,
    CustomerMasterKeySpec: key.keySpec,
    SigningAlgorithms: [ALGORITHM_OF(key.keySpec)],
    MultiRegion: false,
  });

  const privateKeyOf = (key: TStoredKey) =>
    createPrivateKey({ key: Buffer.from(key.privateKey, 'base64'), format: 'der', type: 'pkcs8' });

  /** The digest to sign and the message it came from (RAW only), as MessageType says. */
  function digestOf(body: Record<string, unknown>): { digest: Buffer; raw?: Buffer } {
    const message = Buffer.from(String(body.Message ?? ''), 'base64');
    if (body.MessageType === 'DIGEST') {
      if (message.length !== 32) {
        throw new KmsError('ValidationException', 'Digest is invalid length for algorithm with SHA_256');
      }
      return { digest: message };
    }
    if (body.MessageType !== undefined && body.MessageType !== 'RAW') {
      throw new KmsError(
        'ValidationException',
        `MessageType ${String(body.MessageType)} is not RAW or DIGEST`,
      );
    }
    if (message.length === 0 || message.length > MAX_RAW_MESSAGE) {
      throw new KmsError('ValidationException', `Message must be 1 to ${MAX_RAW_MESSAGE} bytes`);
    }
    return { digest: createHash('sha256').update(message).digest(), raw: message };
  }

  function checkAlgorithm(key: TStoredKey, keyId: string, algorithm: unknown) {
    if (algorithm !== ALGORITHM_OF(key.keySpec)) {
      throw new KmsError(
        'InvalidKeyUsageException',
        `Key ${keyId} (${key.keySpec}) here signs with ${ALGORITHM_OF(key.keySpec)} only, not ${String(algorithm)}`,
      );
    }
  }

  function signDigest(key: TStoredKey, privateKey: KeyObject, digest: Buffer): Buffer {
    if (key.keySpec === 'ECC_NIST_P256') {
      const d = privateKey.export({ format: 'jwk' }).d!;
      return signP256Digest(Buffer.from(d, 'base64url'), digest);
    }
    return privateEncrypt(
      { key: privateKey, padding: constants.RSA_PKCS1_PADDING },
      Buffer.concat([SHA256_DIGEST_INFO, digest]),
    );
  }

  function verifyDigest(key: TStoredKey, publicKey: KeyObject, digest: Buffer, signature: Buffer): boolean {
    if (key.keySpec === 'ECC_NIST_P256') {
      const { x, y } = publicKey.export({ format: 'jwk' });
      return verifyP256Digest(Buffer.from(x!, 'base64url'), Buffer.from(y!, 'base64url'), digest, signature);
    }
    try {
      const recovered = publicDecrypt({ key: publicKey, padding: constants.RSA_PKCS1_PADDING }, signature);
      return recovered.equals(Buffer.concat([SHA256_DIGEST_INFO, digest]));
    } catch {
      return false;
    }
  }

  const operations: Record<string, (body: Record<string, unknown>) => unknown> = {
    CreateKey(body) {
      const keySpec = String(body.KeySpec ?? body.CustomerMasterKeySpec ?? 'SYMMETRIC_DEFAULT');
      if (!KEY_SPECS.includes(keySpec)) {
        throw new KmsError(
          'UnsupportedOperationException',
          `The local KMS makes signing keys only (${KEY_SPECS.join(', ')}), not ${keySpec}`,
        );
      }
      if (body.KeyUsage !== 'SIGN_VERIFY') {
        throw new KmsError('ValidationException', `KeyUsage of a ${keySpec} key here must be SIGN_VERIFY`);
      }
      const pair =
        keySpec === 'ECC_NIST_P256'
          ? generateKeyPairSync('ec', { namedCurve: 'P-256' })
          : generateKeyPairSync('rsa', { modulusLength: RSA_SPECS[keySpec]! });
      const key: TStoredKey = {
        keySpec,
        keyUsage: 'SIGN_VERIFY',
        description: typeof body.Description === 'string' ? body.Description : '',
        createdAt: Math.floor(Date.now() / 1000),
        tags: Array.isArray(body.Tags) ? (body.Tags as TStoredKey['tags']) : [],
        privateKey: pair.privateKey.export({ type: 'pkcs8', format: 'der' }).toString('base64'),
      };
      const id = randomUUID();
      const state = load();
      state.keys[id] = key;
      save(state);
      return { KeyMetadata: metadata(id, key) };
    },
    CreateAlias(body) {
      const state = load();
      const name = String(body.AliasName ?? '');
      if (!/^alias\/[a-zA-Z0-9/_-]{1,250}$/.test(name) || name.startsWith('alias/aws/')) {
        throw new KmsError('ValidationException', `Alias name ${name} is not valid`);
      }
      if (state.aliases[name])
        throw new KmsError('AlreadyExistsException', `An alias with the name ${name} already exists`);
      state.aliases[name] = resolve(state, body.TargetKeyId);
      save(state);
      return {};
    },
    DescribeKey(body) {
      const state = load();
      const id = resolve(state, body.KeyId);
      return { KeyMetadata: metadata(id, state.keys[id]!) };
    },
    GetPublicKey(body) {
      const state = load();
      const id = resolve(state, body.KeyId);
      const key = state.keys[id]!;
      const spki = createPublicKey(privateKeyOf(key)).export({ type: 'spki', format: 'der' });
      return {
        KeyId: arnOf(id),
        PublicKey: spki.toString('base64'),
        KeySpec: key.keySpec,
        CustomerMasterKeySpec: key.keySpec,
        KeyUsage: key.keyUsage,
        SigningAlgorithms: [ALGORITHM_OF(key.keySpec)],
      };
    },
    Sign(body) {
      const state = load();
      const id = resolve(state, body.KeyId);
      const key = state.keys[id]!;
      checkAlgorithm(key, String(body.KeyId), body.SigningAlgorithm);
      const { digest, raw } = digestOf(body);
      const privateKey = privateKeyOf(key);
      // A RAW message goes through node:crypto's ordinary sign; a digest needs the calls above.
      const signature = raw ? sign('sha256', raw, privateKey) : signDigest(key, privateKey, digest);
      return {
        KeyId: arnOf(id),
        Signature: signature.toString('base64'),
        SigningAlgorithm: body.SigningAlgorithm,
      };
    },
    Verify(body) {
      const state = load();
      const id = resolve(state, body.KeyId);
      const key = state.keys[id]!;
      checkAlgorithm(key, String(body.KeyId), body.SigningAlgorithm);
      const { digest, raw } = digestOf(body);
      const publicKey = createPublicKey(privateKeyOf(key));
      const signature = Buffer.from(String(body.Signature ?? ''), 'base64');
      const valid = raw
        ? verify('sha256', raw, publicKey, signature)
        : verifyDigest(key, publicKey, digest, signature);
      if (!valid) throw new KmsError('KMSInvalidSignatureException', 'The signature is not valid');
      return { KeyId: arnOf(id), SignatureValid: true, SigningAlgorithm: body.SigningAlgorithm };
    },
  };

  function reply(res: ServerResponse, status: number, body: unknown) {
    const text = JSON.stringify(body);
    res.writeHead(status, {
      'content-type': 'application/x-amz-json-1.1',
      'content-length': Buffer.byteLength(text),
      'x-amzn-requestid': randomUUID(),
    });
    res.end(text);
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      // KMS takes messages of 4 KB; a body far past that is no KMS request.
      if (size > 64 * 1024) {
        reply(res, 413, { __type: 'ValidationException', message: 'The request is too large' });
        return;
      }
      chunks.push(chunk as Buffer);
    }
    const target = String(req.headers['x-amz-target'] ?? '');
    const op = /^TrentService\.(\w+)$/.exec(target)?.[1];
    try {
      if (req.method !== 'POST' || !op) {
        throw new KmsError('UnknownOperationException', 'POST / with X-Amz-Target: TrentService.<operation>');
      }
      const operation = Object.hasOwn(operations, op) ? operations[op] : undefined;
      if (!operation) throw new KmsError('UnsupportedOperationException', `The local KMS does not do ${op}`);
      let body: Record<string, unknown>;
      try {
        const text = Buffer.concat(chunks).toString('utf8');
        body = text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
      } catch {
        throw new KmsError('SerializationException', 'The request body is not JSON');
      }
      reply(res, 200, operation(body));
    } catch (err) {
      if (err instanceof KmsError) reply(res, 400, { __type: err.type, message: err.message });
      else reply(res, 500, { __type: 'KMSInternalException', message: (err as Error).message });
    }
  }

  const server = createServer((req, res) => {
    void handle(req, res);
  });
  await new Promise<void>((done) => server.listen(opts.port ?? 0, '127.0.0.1', done));
  const bound = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${bound.port}`,
    bound,
    stop: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
