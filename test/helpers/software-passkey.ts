// A passkey authenticator in the test itself: an ES256 key made with node:crypto, answering
// WebAuthn registration and sign-in options as a device would (attestation "none", user present
// and verified), so the server's verification is exercised with real signatures.
import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { isoBase64URL, isoCBOR } from '@simplewebauthn/server/helpers';

const b64 = (bytes: Uint8Array) => isoBase64URL.fromBuffer(Uint8Array.from(bytes));
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};

const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

export interface TSoftwarePasskey {
  /** The credential id, base64url. */
  id: string;
  /** The signature counter the next answer carries one more than. */
  counter: number;
  /** The page's origin the browser puts in its answers. */
  origin: string;
  create(options: PublicKeyCredentialCreationOptionsJSON): RegistrationResponseJSON;
  get(options: PublicKeyCredentialRequestOptionsJSON): AuthenticationResponseJSON;
}

/** A new authenticator for `rpId`, answering as a browser at `origin` would. */
export function softwarePasskey(rpId: string, origin: string): TSoftwarePasskey {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  const credentialId = randomBytes(32);
  let userHandle: string | undefined;
  const clientData = (type: string, challenge: string) =>
    Buffer.from(JSON.stringify({ type, challenge, origin: passkey.origin, crossOrigin: false }), 'utf8');
  const authData = (flags: number, counter: number, attested: Buffer = Buffer.alloc(0)) =>
    Buffer.concat([sha256(rpId), Buffer.from([flags]), u32(counter), attested]);

  const passkey: TSoftwarePasskey = {
    id: b64(credentialId),
    counter: 0,
    origin,
    create(options) {
      userHandle = options.user.id;
      const cose = isoCBOR.encode(
        new Map<number, number | Uint8Array>([
          [1, 2],
          [3, -7],
          [-1, 1],
          [-2, Uint8Array.from(Buffer.from(jwk.x!, 'base64url'))],
          [-3, Uint8Array.from(Buffer.from(jwk.y!, 'base64url'))],
        ]),
      );
      const idLength = Buffer.alloc(2);
      idLength.writeUInt16BE(credentialId.length);
      const attested = Buffer.concat([Buffer.alloc(16), idLength, credentialId, Buffer.from(cose)]);
      const attestation = isoCBOR.encode(
        new Map<string, unknown>([
          ['fmt', 'none'],
          ['attStmt', new Map()],
          ['authData', Uint8Array.from(authData(UP | UV | AT, passkey.counter, attested))],
        ]) as never,
      );
      return {
        id: passkey.id,
        rawId: passkey.id,
        type: 'public-key',
        response: {
          clientDataJSON: b64(clientData('webauthn.create', options.challenge)),
          attestationObject: b64(attestation),
          transports: ['internal'],
        },
        clientExtensionResults: {},
      };
    },
    get(options) {
      passkey.counter += 1;
      const data = authData(UP | UV, passkey.counter);
      const json = clientData('webauthn.get', options.challenge);
      const signature = sign('sha256', Buffer.concat([data, sha256(json)]), privateKey);
      return {
        id: passkey.id,
        rawId: passkey.id,
        type: 'public-key',
        response: {
          clientDataJSON: b64(json),
          authenticatorData: b64(data),
          signature: b64(signature),
          ...(userHandle ? { userHandle } : {}),
        },
        clientExtensionResults: {},
      };
    },
  };
  return passkey;
}
