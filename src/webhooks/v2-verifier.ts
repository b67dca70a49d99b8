import { V2_KEY_ID_HEADER, V2_SIGNATURE_HEADER } from '../contract/v2-webhook.js';
import { AsyncCache } from './async-cache.js';
import { decodeBase64 } from './base64.js';
import { WebhookError } from './errors.js';
import { getHeader, type HeadersLike } from './headers.js';
import { rawBodyBytes } from './raw-body.js';
import { type EcdsaCheck, type SignatureBackend, signatureBackend } from './signature-backend.js';
import { parseV2Notification, type V2Notification } from './v2-notification.js';
import {
  createPublicKeyFetcher,
  importV2PublicKey,
  isWellFormedKeyId,
  type PublicKeyFetcherOptions,
  type V2PublicKey,
  type V2PublicKeyData,
} from './v2-public-key.js';

/** The header the platform puts the v2 signature in: `X-Circle-Signature`. */
export const DEFAULT_SIGNATURE_HEADER = V2_SIGNATURE_HEADER;
/** The header naming the v2 signing key: `X-Circle-Key-Id`. */
export const DEFAULT_KEY_ID_HEADER = V2_KEY_ID_HEADER;

/** Options of {@link createV2Verifier}: where keys come from, and the header names. */
export interface V2VerifierOptions extends PublicKeyFetcherOptions {
  /** Header holding the base64 DER ECDSA signature. Default `X-Circle-Signature`. */
  signatureHeader?: string;
  /** Header holding the key id. Default `X-Circle-Key-Id`. */
  keyIdHeader?: string;
  /**
   * Supplies a key record (the `data` object or the whole `{data}` body) instead of calling the
   * endpoint with `baseUrl`/`apiKey`/`fetch`, e.g. through an SDK client. Still cached per key id.
   * If it throws or rejects, the delivery fails with `WEBHOOK_KEY_FETCH_FAILED` (the receiver answers
   * 503) and the next delivery calls it again; a thrown `WebhookError` keeps its own code.
   */
  getPublicKey?: (keyId: string) => Promise<
    | V2PublicKeyData
    | {
        /** The key record, as the endpoint's body wraps it. */
        data: V2PublicKeyData;
      }
  >;
}

/** A verified v2 delivery. */
export interface VerifiedV2Delivery {
  /** The id of the key that signed it. */
  keyId: string;
  /** The parsed body. */
  notification: V2Notification;
}

/** Verifies v2 deliveries; keep one per process so public keys stay cached. */
export interface V2Verifier {
  /**
   * Verifies the signature over the raw body and parses it; rejects with a {@link WebhookError}
   * (`WEBHOOK_HEADER_MISSING`, `WEBHOOK_SIGNATURE_INVALID`, `WEBHOOK_KEY_FETCH_FAILED`, ...).
   *
   * @example
   * ```ts
   * const verifier = createV2Verifier(); // keys via MATCH_VENUE_BASE_URL and MATCH_VENUE_API_KEY
   * const { keyId, notification } = await verifier.verify({ headers: request.headers, body: rawBody });
   * ```
   */
  verify(delivery: { headers: HeadersLike; body: unknown }): Promise<VerifiedV2Delivery>;
  /** The header the verifier reads the signature from (the receiver uses it to recognise v2). */
  readonly signatureHeader: string;
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** Imports a validated key record into the backend; a key it refuses is `WEBHOOK_KEY_INVALID`. */
async function importKey(key: V2PublicKey, backend: SignatureBackend): Promise<EcdsaCheck> {
  try {
    return await backend.importEcdsaP256(key.subjectPublicKeyInfo);
  } catch (error) {
    throw new WebhookError('WEBHOOK_KEY_INVALID', `Public key ${key.id} cannot be imported.`, {
      cause: error,
    });
  }
}

/**
 * Creates a verifier for notification API v2: ECDSA P-256 / SHA-256 over the raw body bytes, the
 * signature (base64 ASN.1 DER) and key id from headers, the key fetched from the platform once per
 * key id and cached for the verifier's lifetime (a key id's key never changes), with concurrent
 * fetches of one key shared and failed fetches retried on the next delivery. Signatures are checked
 * with node:crypto where the runtime has it and with WebCrypto elsewhere (edge runtimes).
 */
export function createV2Verifier(options: V2VerifierOptions = {}): V2Verifier {
  const signatureHeader = options.signatureHeader ?? DEFAULT_SIGNATURE_HEADER;
  const keyIdHeader = options.keyIdHeader ?? DEFAULT_KEY_ID_HEADER;
  const custom = options.getPublicKey;
  const load: (keyId: string) => Promise<V2PublicKey> = custom
    ? async (keyId) => {
        let record: Awaited<ReturnType<typeof custom>>;
        try {
          record = await custom(keyId);
        } catch (error) {
          // The hook stands in for the key fetch, so its failure is ours, not the sender's: answer
          // the fetch failure's 503 (the platform redelivers) rather than a 500 for a receiver bug.
          // A WebhookError already names its own cause; the hook's own message is not repeated,
          // since it may hold anything (the reply body carries `message`).
          if (error instanceof WebhookError) throw error;
          throw new WebhookError('WEBHOOK_KEY_FETCH_FAILED', `getPublicKey(${keyId}) failed.`, {
            cause: error,
          });
        }
        const imported = importV2PublicKey(record);
        if (imported.id !== keyId) {
          throw new WebhookError(
            'WEBHOOK_KEY_INVALID',
            `getPublicKey(${keyId}) returned key ${imported.id}.`,
          );
        }
        return imported;
      }
    : createPublicKeyFetcher(options);
  const backend = signatureBackend();
  const keys = new AsyncCache((keyId) => load(keyId).then((key) => importKey(key, backend)));

  return {
    signatureHeader,
    async verify({ headers, body }) {
      const bytes = rawBodyBytes(body);
      const signatureB64 = getHeader(headers, signatureHeader)?.trim();
      const keyId = getHeader(headers, keyIdHeader)?.trim();
      if (!signatureB64 || !BASE64.test(signatureB64)) {
        throw new WebhookError(
          'WEBHOOK_HEADER_MISSING',
          `Header ${signatureHeader} is missing or not base64.`,
        );
      }
      if (!keyId || !isWellFormedKeyId(keyId)) {
        throw new WebhookError('WEBHOOK_HEADER_MISSING', `Header ${keyIdHeader} is missing or malformed.`);
      }
      const check = await keys.get(keyId);
      const signature = decodeBase64(signatureB64);
      if (!signature || !(await check(signature, bytes))) {
        throw new WebhookError('WEBHOOK_SIGNATURE_INVALID', 'v2 notification signature does not verify.');
      }
      const text = new TextDecoder('utf-8').decode(bytes);
      return { keyId, notification: parseV2Notification(text) };
    },
  };
}
