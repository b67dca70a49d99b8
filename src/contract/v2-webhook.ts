/**
 * The v2 webhook facts of the platform API: which headers a delivery's signature and key id travel
 * in, and the record `GET /v2/notifications/publicKey/{keyId}` answers with. Contract facts both the
 * simulator (signing, src/webhook-crypto/signing.ts) and match-venue/webhooks (verifying) follow.
 */

/** The v2 signature header (base64 ASN.1 DER ECDSA P-256 SHA-256 over the raw body). */
export const V2_SIGNATURE_HEADER = 'X-Circle-Signature';
/** The v2 header naming the signing key's id. */
export const V2_KEY_ID_HEADER = 'X-Circle-Key-Id';

/** The `data` of `GET /v2/notifications/publicKey/{keyId}`. */
export interface V2PublicKeyData {
  /** The key id deliveries name in `X-Circle-Key-Id`. */
  id: string;
  /** The only algorithm the platform uses. */
  algorithm: 'ECDSA_SHA_256';
  /** Base64 of the DER SubjectPublicKeyInfo. */
  publicKey: string;
  /** When the key was created, ISO 8601. */
  createDate?: string;
}
