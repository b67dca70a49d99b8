import type * as NodeCrypto from 'node:crypto';
import { nodeCrypto } from '../webhook-crypto/node-crypto.js';
import { WebhookError } from './errors.js';
import { derSignatureToP1363 } from './p256.js';

/** SNS SignatureVersion 1 signs with SHA1, 2 with SHA256. */
export type RsaDigest = 'sha1' | 'sha256';

/** Checks RSA PKCS#1 v1.5 signatures of one imported key. */
export type RsaCheck = (digest: RsaDigest, signature: Uint8Array, data: Uint8Array) => Promise<boolean>;

/** Checks ECDSA P-256 SHA-256 signatures (ASN.1 DER, as the platform sends them) of one imported key. */
export type EcdsaCheck = (derSignature: Uint8Array, data: Uint8Array) => Promise<boolean>;

/**
 * Where signatures are checked: node:crypto when the runtime has it (a whole verify call, v1 or v2,
 * takes about 0.6 times as long as through WebCrypto in Node 20), WebCrypto everywhere else (edge
 * runtimes). Both import the DER SubjectPublicKeyInfo and answer false for a signature that does
 * not verify; an import that fails rejects, and callers say which key was unusable.
 */
export interface SignatureBackend {
  readonly name: 'node:crypto' | 'webcrypto';
  importRsa(spki: Uint8Array): Promise<RsaCheck>;
  importEcdsaP256(spki: Uint8Array): Promise<EcdsaCheck>;
}

function nodeBackend(crypto: typeof NodeCrypto): SignatureBackend {
  const publicKey = (spki: Uint8Array) =>
    crypto.createPublicKey({ key: Buffer.from(spki), format: 'der', type: 'spki' });
  const check = (run: () => boolean): Promise<boolean> => {
    try {
      return Promise.resolve(run());
    } catch {
      // A signature of the wrong length or a malformed DER sequence: simply not a valid signature.
      return Promise.resolve(false);
    }
  };
  return {
    name: 'node:crypto',
    async importRsa(spki) {
      const key = publicKey(spki);
      return (digest, signature, data) => check(() => crypto.verify(digest, data, key, signature));
    },
    async importEcdsaP256(spki) {
      const key = publicKey(spki);
      return (signature, data) =>
        check(() => crypto.verify('sha256', data, { key, dsaEncoding: 'der' }, signature));
    },
  };
}

const WEB_DIGEST = { sha1: 'SHA-1', sha256: 'SHA-256' } as const;

function isArrayBufferBacked(bytes: Uint8Array): bytes is Uint8Array<ArrayBuffer> {
  return bytes.buffer instanceof ArrayBuffer;
}

/** WebCrypto takes no view of a SharedArrayBuffer: such bytes (rare) are copied first. */
function own(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return isArrayBufferBacked(bytes) ? bytes : new Uint8Array(bytes);
}

function webCryptoBackend(subtle: SubtleCrypto): SignatureBackend {
  const check = (pending: Promise<boolean>): Promise<boolean> => pending.catch(() => false);
  return {
    name: 'webcrypto',
    async importRsa(spki) {
      // WebCrypto binds the hash to the key, so each digest gets its own import, made when first used.
      const imports: Partial<Record<RsaDigest, Promise<CryptoKey>>> = {};
      const importFor = (digest: RsaDigest) =>
        subtle.importKey('spki', own(spki), { name: 'RSASSA-PKCS1-v1_5', hash: WEB_DIGEST[digest] }, false, [
          'verify',
        ]);
      imports.sha256 = importFor('sha256');
      await imports.sha256;
      return async (digest, signature, data) => {
        imports[digest] ??= importFor(digest);
        let key: CryptoKey;
        try {
          key = await imports[digest];
        } catch (error) {
          throw new WebhookError(
            'WEBHOOK_SIGNATURE_VERSION_UNSUPPORTED',
            `This runtime's WebCrypto cannot verify RSA signatures with ${WEB_DIGEST[digest]}.`,
            { cause: error },
          );
        }
        return check(subtle.verify('RSASSA-PKCS1-v1_5', key, own(signature), own(data)));
      };
    },
    async importEcdsaP256(spki) {
      const key = await subtle.importKey('spki', own(spki), { name: 'ECDSA', namedCurve: 'P-256' }, false, [
        'verify',
      ]);
      return async (derSignature, data) => {
        const signature = derSignatureToP1363(derSignature);
        if (!signature) return false;
        return check(subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, key, signature, own(data)));
      };
    },
  };
}

/**
 * The backend for a verifier being created now: node:crypto if the runtime has it, else WebCrypto
 * (`crypto.subtle`). Chosen per verifier, not per module, so that loading this module does nothing.
 */
export function signatureBackend(): SignatureBackend {
  const node = nodeCrypto();
  if (node) return nodeBackend(node);
  const subtle = (globalThis as { crypto?: { subtle?: SubtleCrypto } }).crypto?.subtle;
  if (subtle) return webCryptoBackend(subtle);
  throw new WebhookError(
    'WEBHOOK_CONFIG_INVALID',
    'Verifying webhook signatures needs node:crypto or WebCrypto (crypto.subtle); this runtime has neither.',
  );
}
