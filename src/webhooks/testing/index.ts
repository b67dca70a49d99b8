/**
 * `match-venue/webhooks/testing`: what a receiver's tests use, kept off the production entry.
 *
 * - Signers that make deliveries your receiver accepts: {@link createSnsTestSigner} (v1, SNS
 *   messages with a self-signed certificate) and {@link createV2TestSigner} (v2, ECDSA P-256).
 * - {@link createSelfSignedCertificate}, the certificate behind the SNS signer.
 * - {@link loopbackUrlPolicy}: the SNS URL policy that also accepts http on a loopback host, for a
 *   receiver fed by the simulator (`npx match-venue-sim`); production keeps the default policy.
 *
 * @module match-venue/webhooks/testing
 */

export { loopbackUrlPolicy } from '../sns-url-policy.js';
export {
  createSelfSignedCertificate,
  type SelfSignedCertificateOptions,
} from './self-signed-certificate.js';
export {
  createSnsTestSigner,
  type SnsTestConfirmationInput,
  type SnsTestMessageInput,
  type SnsTestNotificationInput,
  type SnsTestSigner,
  type SnsTestSignerOptions,
  type UnsignedSnsMessage,
} from './sns-test-signer.js';
export {
  createV2TestSigner,
  type SignedV2Delivery,
  type V2TestNotificationInput,
  type V2TestSigner,
  type V2TestSignerOptions,
} from './v2-test-signer.js';
