import type { V2PublicKeyData } from '../contract/v2-webhook.js';
import { decodeBase64 } from './base64.js';
import { WebhookError } from './errors.js';
import { type FetchLike, globalFetch } from './fetch.js';
import { readP256PublicKey } from './p256.js';

export type { V2PublicKeyData } from '../contract/v2-webhook.js';

/** A validated v2 verification key record. */
export interface V2PublicKey extends V2PublicKeyData {
  /**
   * The key as an uncompressed P-256 DER SubjectPublicKeyInfo, checked to lie on the curve: what a
   * verifier imports into node:crypto or WebCrypto.
   */
  subjectPublicKeyInfo: Uint8Array;
}

/** Default path of the public-key endpoint; `{keyId}` is replaced by the (validated) key id. */
export const DEFAULT_PUBLIC_KEY_PATH = '/v2/notifications/publicKey/{keyId}';

/**
 * Key ids are UUIDs on the real platform; anything outside this alphabet is refused before it is
 * placed in a URL path, so a hostile header cannot steer the authenticated request elsewhere.
 */
const KEY_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** True when `keyId` is safe to place in the key endpoint's path. */
export function isWellFormedKeyId(keyId: string): boolean {
  return KEY_ID.test(keyId);
}

function keyInvalid(message: string, cause?: unknown): WebhookError {
  return new WebhookError('WEBHOOK_KEY_INVALID', message, { cause });
}

/**
 * Validates a public-key record (the `data` object, or the whole `{data}` response body) and its
 * key. Refuses an algorithm other than ECDSA_SHA_256 and any key that is not an EC P-256 point on
 * the curve. Pure parsing, the same on every runtime.
 */
export function importV2PublicKey(record: unknown): V2PublicKey {
  const data =
    typeof record === 'object' && record !== null && 'data' in record
      ? (record as { data: unknown }).data
      : record;
  if (typeof data !== 'object' || data === null) throw keyInvalid('Public-key response has no data object.');
  const { id, algorithm, publicKey, createDate } = data as Record<string, unknown>;
  if (typeof id !== 'string' || typeof publicKey !== 'string') {
    throw keyInvalid('Public-key response lacks the string fields "id" and "publicKey".');
  }
  if (algorithm !== 'ECDSA_SHA_256') {
    throw new WebhookError(
      'WEBHOOK_KEY_ALGORITHM_UNSUPPORTED',
      `Public key ${id} uses algorithm ${JSON.stringify(algorithm)}; only ECDSA_SHA_256 is supported.`,
    );
  }
  const der = decodeBase64(publicKey);
  const read = der ? readP256PublicKey(der) : { problem: 'not-der' as const };
  if ('problem' in read) {
    throw keyInvalid(
      read.problem === 'not-der'
        ? `Public key ${id} is not a base64 DER SubjectPublicKeyInfo.`
        : read.problem === 'not-p256'
          ? `Public key ${id} is not an EC P-256 key.`
          : `Public key ${id} is not a point on the P-256 curve.`,
    );
  }
  return {
    id,
    algorithm,
    publicKey,
    ...(typeof createDate === 'string' ? { createDate } : {}),
    subjectPublicKeyInfo: read.spki,
  };
}

/** `process.env` where the runtime has one; edge runtimes may have no `process` at all. */
function environment(): Record<string, string | undefined> {
  return (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env ?? {};
}

/** How to reach the platform's public-key endpoint. */
export interface PublicKeyFetcherOptions {
  /** Platform base URL. Default: `process.env.MATCH_VENUE_BASE_URL`. */
  baseUrl?: string;
  /** API key for the bearer credential. Default: `process.env.MATCH_VENUE_API_KEY`. */
  apiKey?: string;
  /** Endpoint path template containing `{keyId}`. Default {@link DEFAULT_PUBLIC_KEY_PATH}. */
  publicKeyPath?: string;
  /** The fetch to call the endpoint with. Default: the global fetch. */
  fetch?: FetchLike;
}

/**
 * Builds `(keyId) => Promise<V2PublicKey>` that calls the platform's public-key endpoint with bearer
 * auth. Uncached: the v2 verifier caches. Errors never include the API key.
 */
export function createPublicKeyFetcher(
  options: PublicKeyFetcherOptions = {},
): (keyId: string) => Promise<V2PublicKey> {
  const env = environment();
  const baseUrl = options.baseUrl ?? env.MATCH_VENUE_BASE_URL;
  const apiKey = options.apiKey ?? env.MATCH_VENUE_API_KEY;
  const path = options.publicKeyPath ?? DEFAULT_PUBLIC_KEY_PATH;
  if (!baseUrl || !URL.canParse(baseUrl)) {
    throw new WebhookError(
      'WEBHOOK_CONFIG_INVALID',
      'v2 verification needs the platform base URL (option baseUrl or MATCH_VENUE_BASE_URL) to fetch public keys.',
    );
  }
  if (!apiKey) {
    throw new WebhookError(
      'WEBHOOK_CONFIG_INVALID',
      'v2 verification needs an API key (option apiKey or MATCH_VENUE_API_KEY) to fetch public keys.',
    );
  }
  if (!path.includes('{keyId}')) {
    throw new WebhookError('WEBHOOK_CONFIG_INVALID', 'publicKeyPath must contain the placeholder {keyId}.');
  }
  const fetchFn = options.fetch ?? globalFetch;
  const base = baseUrl.replace(/\/+$/, '');

  return async (keyId) => {
    if (!isWellFormedKeyId(keyId)) {
      throw new WebhookError('WEBHOOK_HEADER_MISSING', 'The v2 key id header is malformed.');
    }
    const url = `${base}${path.replace('{keyId}', keyId)}`;
    let response: Response;
    try {
      response = await fetchFn(url, {
        method: 'GET',
        headers: { authorization: `Bearer ${apiKey}`, accept: 'application/json' },
      });
    } catch (error) {
      throw new WebhookError('WEBHOOK_KEY_FETCH_FAILED', `Fetching public key ${keyId} from ${url} failed.`, {
        cause: error,
      });
    }
    if (!response.ok) {
      await response.arrayBuffer().catch(() => undefined);
      throw new WebhookError(
        'WEBHOOK_KEY_FETCH_FAILED',
        `Fetching public key ${keyId} from ${url} answered HTTP ${response.status}.`,
      );
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch (error) {
      throw keyInvalid(`Public-key response for ${keyId} is not JSON.`, error);
    }
    const imported = importV2PublicKey(body);
    if (imported.id !== keyId) {
      throw keyInvalid(`Public-key response for ${keyId} names another key id (${imported.id}).`);
    }
    return imported;
  };
}
