import { MatchVenueError, type WebhookErrorKind } from '../core/base-error.js';

/**
 * Stable machine-readable codes for every way a webhook delivery can be refused.
 * Match on `error.code`, never on the message text.
 */
export const WebhookErrorCode = {
  /** The body was an already-parsed object; verification needs the exact bytes that were signed. */
  BodyNotRaw: 'WEBHOOK_BODY_NOT_RAW',
  /**
   * The body is not valid JSON, lacks a field its message type requires, or breaks a format SNS
   * guarantees (a line break or control character in a single-line field, a MessageId that is not a
   * UUID, a Timestamp that is not ISO 8601 UTC, a TopicArn that is not an SNS topic ARN).
   */
  BodyInvalid: 'WEBHOOK_BODY_INVALID',
  /** The body exceeded the configured size limit. */
  BodyTooLarge: 'WEBHOOK_BODY_TOO_LARGE',
  /** A header the verification needs (v2 signature or key id) is missing or malformed. */
  HeaderMissing: 'WEBHOOK_HEADER_MISSING',
  /** The signature does not match the signed content. */
  SignatureInvalid: 'WEBHOOK_SIGNATURE_INVALID',
  /** An SNS SignatureVersion other than 1 or 2. */
  SignatureVersionUnsupported: 'WEBHOOK_SIGNATURE_VERSION_UNSUPPORTED',
  /** The SNS SigningCertURL is not an https URL on an SNS host ending in .pem (or fails the custom policy). */
  CertUrlRejected: 'WEBHOOK_CERT_URL_REJECTED',
  /** The signing certificate could not be fetched. */
  CertFetchFailed: 'WEBHOOK_CERT_FETCH_FAILED',
  /** The fetched signing certificate could not be parsed or holds no RSA key. */
  CertInvalid: 'WEBHOOK_CERT_INVALID',
  /** The signing certificate's validity period ended before `now`. */
  CertExpired: 'WEBHOOK_CERT_EXPIRED',
  /** The signing certificate's validity period starts after `now`. */
  CertNotYetValid: 'WEBHOOK_CERT_NOT_YET_VALID',
  /** The TopicArn does not match the configured allow pattern. */
  TopicRejected: 'WEBHOOK_TOPIC_REJECTED',
  /** The SubscribeURL of a (un)subscribe confirmation fails the host rule. */
  SubscribeUrlRejected: 'WEBHOOK_SUBSCRIBE_URL_REJECTED',
  /** Fetching the SubscribeURL to confirm a subscription failed. */
  ConfirmFailed: 'WEBHOOK_CONFIRM_FAILED',
  /** The v2 public key could not be fetched (network error, non-2xx answer, or `getPublicKey` threw). */
  KeyFetchFailed: 'WEBHOOK_KEY_FETCH_FAILED',
  /** The v2 public key response is malformed or not a P-256 key. */
  KeyInvalid: 'WEBHOOK_KEY_INVALID',
  /** The v2 public key response names an algorithm other than ECDSA_SHA_256. */
  KeyAlgorithmUnsupported: 'WEBHOOK_KEY_ALGORITHM_UNSUPPORTED',
  /** The user's notification handler threw; the receiver answers 500 so the platform retries. */
  HandlerFailed: 'WEBHOOK_HANDLER_FAILED',
  /** Something other than the delivery failed inside the receiver (a bug or an unexpected throw). */
  Internal: 'WEBHOOK_INTERNAL_ERROR',
  /** The receiver or verifier was configured inconsistently (caught at creation time). */
  ConfigInvalid: 'WEBHOOK_CONFIG_INVALID',
} as const satisfies Record<string, WebhookErrorKind>;

export type WebhookErrorCode = (typeof WebhookErrorCode)[keyof typeof WebhookErrorCode];

/**
 * The one error class of `match-venue/webhooks`, a {@link MatchVenueError} like every error of the
 * package. Its `code` (and `kind`, the same string) is one of {@link WebhookErrorCode}. Messages
 * never contain secrets (API keys, tokens); they may name URLs and header names, which come from the
 * delivery itself.
 */
export class WebhookError extends MatchVenueError {
  /** Undefined: each WebhookError carries its own code, one of {@link WebhookErrorCode}. */
  static override readonly kind: undefined = undefined;
  /** The class name. */
  override readonly name = 'WebhookError';
  override readonly kind: WebhookErrorCode;
  override readonly code: WebhookErrorCode;

  constructor(code: WebhookErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.kind = code;
    this.code = code;
  }
}

/** True when `value` is a {@link WebhookError}, optionally with the given code. */
export function isWebhookError(value: unknown, code?: WebhookErrorCode): value is WebhookError {
  return value instanceof WebhookError && (code === undefined || value.code === code);
}
