/**
 * `match-venue/webhooks`: receive and verify the platform's webhook deliveries.
 *
 * - Notification API v1 (SNS messages): {@link createSnsVerifier}, {@link confirmSnsSubscription}.
 * - Notification API v2 (ECDSA P-256 signed): {@link createV2Verifier}.
 * - One receiver for both, usable from node:http, Express and fetch-style servers:
 *   {@link createWebhookReceiver}.
 * - Source-address allowlists (v2 only): {@link isAllowedSource}.
 * - Signers for tests, and the URL policy that accepts the simulator's loopback URLs:
 *   `match-venue/webhooks/testing`.
 *
 * @module match-venue/webhooks
 */

export type { WebhookErrorKind } from '../core/base-error.js';
export { isAllowedSource, WEBHOOK_SOURCE_ADDRESSES, type WebhookProduct } from './allowlist.js';
export { isWebhookError, WebhookError, WebhookErrorCode } from './errors.js';
export type { FetchLike } from './fetch.js';
export type { HeadersLike } from './headers.js';
export type { RawBody } from './raw-body.js';
export {
  createWebhookReceiver,
  type NodeRequest,
  type NodeResponse,
  type SnsReceiverOptions,
  type WebhookDelivery,
  type WebhookEvent,
  type WebhookReceiver,
  type WebhookReceiverOptions,
  type WebhookReply,
} from './receiver.js';
export { type ConfirmSnsSubscriptionOptions, confirmSnsSubscription } from './sns-confirm.js';
export {
  parseSnsMessage,
  type SnsMessage,
  type SnsMessageBase,
  type SnsMessageType,
  type SnsNotification,
  type SnsSignatureVersion,
  type SnsSubscriptionConfirmation,
  type SnsUnsubscribeConfirmation,
} from './sns-message.js';
export { type SnsUrlPolicy, type SnsUrlPurpose, snsUrlPolicy } from './sns-url-policy.js';
export {
  createSnsVerifier,
  type SnsVerifier,
  type SnsVerifierOptions,
  type TopicArnMatcher,
} from './sns-verifier.js';
export { parseV2Notification, type V2Notification } from './v2-notification.js';
export {
  createPublicKeyFetcher,
  DEFAULT_PUBLIC_KEY_PATH,
  importV2PublicKey,
  type PublicKeyFetcherOptions,
  type V2PublicKey,
  type V2PublicKeyData,
} from './v2-public-key.js';
export {
  createV2Verifier,
  DEFAULT_KEY_ID_HEADER,
  DEFAULT_SIGNATURE_HEADER,
  type V2Verifier,
  type V2VerifierOptions,
  type VerifiedV2Delivery,
} from './v2-verifier.js';
