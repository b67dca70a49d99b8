/**
 * How the platform signs webhook deliveries, as the simulator signs them and as match-venue/webhooks'
 * test signers do; the receiver's verifiers check exactly this. The webhook-crypto layer: shared by
 * the simulator and match-venue/webhooks, over the contract's message and header facts.
 * - v1 (SNS): RSA over the canonical string (sns-canonical.ts), SHA1 for SignatureVersion 1,
 *   SHA256 for 2.
 * - v2: ECDSA P-256 SHA-256 over the raw body, ASN.1 DER, base64, in `X-Circle-Signature`, with the
 *   key's id in `X-Circle-Key-Id`; the key is served by `GET /v2/notifications/publicKey/{keyId}`.
 */
import type { KeyObject } from 'node:crypto';
import type { SnsMessage, SnsSignatureVersion, UnsignedSnsMessage } from '../contract/sns-message.js';
import { V2_KEY_ID_HEADER, V2_SIGNATURE_HEADER, type V2PublicKeyData } from '../contract/v2-webhook.js';
import { requireNodeCrypto } from './node-crypto.js';
import { snsCanonicalString } from './sns-canonical.js';

/** A signed v2 delivery: post `body` verbatim with `headers`. */
export interface SignedV2Delivery {
  /** The raw JSON body the signature covers. */
  body: string;
  /** The signature and key-id headers. */
  headers: Record<string, string>;
}

const SNS_DIGEST = { '1': 'sha1', '2': 'sha256' } as const;

/** Signs an SNS message: sets SignatureVersion, SigningCertURL and Signature. */
export function signSnsMessage<M extends SnsMessage>(
  unsigned: UnsignedSnsMessage<M>,
  options: { version: SnsSignatureVersion; certificateUrl: string; privateKey: KeyObject },
): M {
  const draft = {
    ...unsigned,
    SignatureVersion: options.version,
    Signature: '',
    SigningCertURL: options.certificateUrl,
  } as unknown as M;
  const signature = requireNodeCrypto('Signing an SNS message').sign(
    SNS_DIGEST[options.version],
    new TextEncoder().encode(snsCanonicalString(draft)),
    options.privateKey,
  );
  draft.Signature = signature.toString('base64');
  return draft;
}

/** The public-key record of a v2 signing key (an EC P-256 public key). */
export function v2PublicKeyRecord(keyId: string, publicKey: KeyObject, createDate: string): V2PublicKeyData {
  return {
    id: keyId,
    algorithm: 'ECDSA_SHA_256',
    publicKey: publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
    createDate,
  };
}

/** Signs a v2 body with the key `keyId` names; the header names are configurable as on the receiver. */
export function signV2Delivery(
  body: string,
  options: { keyId: string; privateKey: KeyObject; signatureHeader?: string; keyIdHeader?: string },
): SignedV2Delivery {
  const signature = requireNodeCrypto('Signing a v2 delivery').sign(
    'sha256',
    new TextEncoder().encode(body),
    {
      key: options.privateKey,
      dsaEncoding: 'der',
    },
  );
  return {
    body,
    headers: {
      'content-type': 'application/json',
      [options.signatureHeader ?? V2_SIGNATURE_HEADER]: signature.toString('base64'),
      [options.keyIdHeader ?? V2_KEY_ID_HEADER]: options.keyId,
    },
  };
}
