/**
 * The simulator's signing keys, reused from the webhooks toolkit's test signers so the
 * simulator's deliveries verify with exactly the code users verify real deliveries with.
 */
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import type { SnsMessage, SnsSignatureVersion } from '../../webhooks/sns-message.js';
import { createSnsTestSigner, type UnsignedSnsMessage } from '../../webhooks/testing/sns-test-signer.js';
import { createV2TestSigner, type SignedV2Delivery } from '../../webhooks/testing/v2-test-signer.js';
import type { V2PublicKeyData } from '../../webhooks/v2-public-key.js';

/** RSA signer of SNS messages; the simulator replaces SigningCertURL (not a signed field) afterwards. */
export interface SnsSigner {
  readonly certificatePem: string;
  sign<M extends SnsMessage>(message: UnsignedSnsMessage<M>, signatureVersion?: SnsSignatureVersion): M;
}

/** ECDSA P-256 signer of v2 bodies, with the public-key record the key endpoint serves. */
export interface V2Signer {
  readonly keyId: string;
  readonly publicKeyRecord: V2PublicKeyData;
  sign(body: string): SignedV2Delivery;
}

export interface PlatformSigners {
  sns: SnsSigner;
  v2: V2Signer;
}

let rsaKeyPair: { privateKey: KeyObject; publicKey: KeyObject } | undefined;

/**
 * A self-signed certificate over an RSA key, and a fresh P-256 key with a random id. The 2048-bit
 * RSA key pair is generated once per process (it takes a noticeable moment and simulators are
 * created per test); each platform still gets its own certificate and v2 key.
 */
export function createDefaultSigners(): PlatformSigners {
  rsaKeyPair ??= generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    sns: createSnsTestSigner({ certificateUrl: 'http://127.0.0.1/_sim/sns/cert.pem', keyPair: rsaKeyPair }),
    v2: createV2TestSigner(),
  };
}
