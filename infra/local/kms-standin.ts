// A local stand-in of AWS KMS for asymmetric signing keys, so the seal is made locally by the
// same KMS adapter as on AWS (shared/adapters/sealing/kms-seal-identity.ts). It speaks the KMS
// JSON 1.1 protocol as the SDK v3 KMSClient sends it (POST /, X-Amz-Target: TrentService.<op>,
// base64 blobs, errors as {"__type", "message"}) for CreateKey, CreateAlias, DescribeKey,
// GetPublicKey, Sign and Verify; for the documents' symmetric keys (kms-symmetric.ts) also
// Encrypt, Decrypt and GenerateDataKey, which the S3 stand-in calls as S3 does, and
// ScheduleKeyDeletion, after which the key refuses every use as KMS does. Keys live in one file of
// the data folder (mode 0600) and no operation returns a key's own material: like KMS, the key is
// used here and never handed out.
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
import { deniedBy } from './kms-key-policy';
import { keyIdOfBlob, newSymmetricSecret, openWith, sealWith } from './kms-symmetric';

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
  keyUsage: 'SIGN_VERIFY' | 'ENCRYPT_DECRYPT';
  description: string;
  createdAt: number;
  tags: { TagKey: string; TagValue: string }[];
  /** A signing key's PKCS #8 DER, base64: only ever read by this file. */
  privateKey?: string;
  /** A symmetric key's 32 bytes, base64: only ever read by this file. */
  secret?: string;
  /**
   * The key policy as given. Its Deny statements on the encryption context are enforced
   * (kms-key-policy.ts); the rest is kept, not enforced: the stand-in checks no credentials.
   */
  policy?: string;
  /** When ScheduleKeyDeletion was asked for, the time (epoch seconds) the key goes. */
  deletionDate?: number;
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
    Enabled: key.deletionDate === undefined,
    Description: key.description,
    KeyUsage: key.keyUsage,
    KeyState: key.deletionDate === undefined ? 'Enabled' : 'PendingDeletion',
    ...(key.deletionDate === undefined ? {} : { DeletionDate: key.deletionDate }),
    Origin: 'AWS_KMS',
    KeyManager: 'CUSTOMER',
    KeySpec: key.keySpec,
    CustomerMasterKeySpec: key.keySpec,
    ...(key.secret
      ? { EncryptionAlgorithms: ['SYMMETRIC_DEFAULT'] }
      : { SigningAlgorithms: [ALGORITHM_OF(key.keySpec)] }),
    MultiRegion: false,
  });

  const privateKeyOf = (key: TStoredKey) => {
    if (!key.privateKey)
      throw new KmsError(
        'InvalidKeyUsageException',
        'This key does not sign: its KeyUsage is ENCRYPT_DECRYPT',
      );
    return createPrivateKey({ key: Buffer.from(key.privateKey, 'base64'), format: 'der', type: 'pkcs8' });
  };

  /** The key named by KeyId, refused as KMS does once its deletion is scheduled. */
  function usable(state: TState, keyId: unknown): { id: string; key: TStoredKey } {
    const id = resolve(state, keyId);
    const key = state.keys[id]!;
    if (key.deletionDate !== undefined)
      throw new KmsError('KMSInvalidStateException', `${arnOf(id)} is pending deletion.`);
    return { id, key };
  }

  /**
   * A symmetric key to encrypt or decrypt with, for `action` under `context`: its policy's
   * denials on the context answer as KMS does, AccessDeniedException.
   */
  function symmetric(
    state: TState,
    keyId: unknown,
    action: string,
    context: unknown,
  ): { id: string; secret: string } {
    const { id, key } = usable(state, keyId);
    if (!key.secret)
      throw new KmsError('InvalidKeyUsageException', `${arnOf(id)} is a signing key: it does not encrypt`);
    const sid = deniedBy(key.policy, action, context as Record<string, string> | undefined);
    if (sid) {
      throw new KmsError(
        'AccessDeniedException',
        `User is not authorized to perform: ${action} on resource: ${arnOf(id)} with an explicit deny in a resource-based policy (${sid})`,
      );
    }
    return { id, secret: key.secret };
  }

  const blobOf = (value: unknown) => Buffer.from(String(value ?? ''), 'base64');

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
      const common = {
        description: typeof body.Description === 'string' ? body.Description : '',
        createdAt: Math.floor(Date.now() / 1000),
        tags: Array.isArray(body.Tags) ? (body.Tags as TStoredKey['tags']) : [],
        ...(typeof body.Policy === 'string' ? { policy: body.Policy } : {}),
      };
      if (keySpec === 'SYMMETRIC_DEFAULT') {
        if ((body.KeyUsage ?? 'ENCRYPT_DECRYPT') !== 'ENCRYPT_DECRYPT') {
          throw new KmsError(
            'ValidationException',
            'KeyUsage of a SYMMETRIC_DEFAULT key must be ENCRYPT_DECRYPT',
          );
        }
        const key: TStoredKey = {
          keySpec,
          keyUsage: 'ENCRYPT_DECRYPT',
          ...common,
          secret: newSymmetricSecret(),
        };
        const id = randomUUID();
        const state = load();
        state.keys[id] = key;
        save(state);
        return { KeyMetadata: metadata(id, key) };
      }
      if (!KEY_SPECS.includes(keySpec)) {
        throw new KmsError(
          'UnsupportedOperationException',
          `The local KMS makes SYMMETRIC_DEFAULT and signing keys only (${KEY_SPECS.join(', ')}), not ${keySpec}`,
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
        ...common,
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
    PutKeyPolicy(body) {
      const state = load();
      const id = resolve(state, body.KeyId);
      const policy = typeof body.Policy === 'string' ? body.Policy : '';
      try {
        JSON.parse(policy);
      } catch {
        throw new KmsError('MalformedPolicyDocumentException', 'The policy is not JSON');
      }
      state.keys[id]!.policy = policy;
      save(state);
      return {};
    },
    DescribeKey(body) {
      const state = load();
      const id = resolve(state, body.KeyId);
      return { KeyMetadata: metadata(id, state.keys[id]!) };
    },
    GetPublicKey(body) {
      const { id, key } = usable(load(), body.KeyId);
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
      const { id, key } = usable(load(), body.KeyId);
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
    Encrypt(body) {
      const { id, secret } = symmetric(load(), body.KeyId, 'kms:Encrypt', body.EncryptionContext);
      const plaintext = blobOf(body.Plaintext);
      if (plaintext.length === 0 || plaintext.length > MAX_RAW_MESSAGE)
        throw new KmsError('ValidationException', `Plaintext must be 1 to ${MAX_RAW_MESSAGE} bytes`);
      return {
        KeyId: arnOf(id),
        CiphertextBlob: sealWith(id, secret, plaintext, body.EncryptionContext).toString('base64'),
        EncryptionAlgorithm: 'SYMMETRIC_DEFAULT',
      };
    },
    GenerateDataKey(body) {
      const { id, secret } = symmetric(load(), body.KeyId, 'kms:GenerateDataKey', body.EncryptionContext);
      const bytes = body.KeySpec === 'AES_128' ? 16 : Number(body.NumberOfBytes ?? 32);
      if (!Number.isInteger(bytes) || bytes < 1 || bytes > 1024)
        throw new KmsError('ValidationException', 'NumberOfBytes must be 1 to 1024');
      const plaintext = randomBytes(bytes);
      return {
        KeyId: arnOf(id),
        Plaintext: plaintext.toString('base64'),
        CiphertextBlob: sealWith(id, secret, plaintext, body.EncryptionContext).toString('base64'),
      };
    },
    Decrypt(body) {
      const blob = blobOf(body.CiphertextBlob);
      const state = load();
      const owner = keyIdOfBlob(blob);
      // KMS says nothing more for a blob of another key or a context other than it was sealed under.
      const bad = () => new KmsError('InvalidCiphertextException', '');
      if (!owner || !state.keys[owner]) throw bad();
      if (body.KeyId !== undefined && resolve(state, body.KeyId) !== owner)
        throw new KmsError(
          'IncorrectKeyException',
          'The key ID in the request does not identify the key that encrypted the ciphertext',
        );
      const { id, secret } = symmetric(state, owner, 'kms:Decrypt', body.EncryptionContext);
      const plaintext = openWith(secret, blob, body.EncryptionContext);
      if (!plaintext) throw bad();
      return {
        KeyId: arnOf(id),
        Plaintext: plaintext.toString('base64'),
        EncryptionAlgorithm: 'SYMMETRIC_DEFAULT',
      };
    },
    ScheduleKeyDeletion(body) {
      const state = load();
      const { id, key } = usable(state, body.KeyId);
      const days = Number(body.PendingWindowInDays ?? 30);
      if (!Number.isInteger(days) || days < 7 || days > 30)
        throw new KmsError('ValidationException', 'PendingWindowInDays must be 7 to 30');
      key.deletionDate = Math.floor(Date.now() / 1000) + days * 86_400;
      save(state);
      return {
        KeyId: arnOf(id),
        DeletionDate: key.deletionDate,
        KeyState: 'PendingDeletion',
        PendingWindowInDays: days,
      };
    },
    Verify(body) {
      const { id, key } = usable(load(), body.KeyId);
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
