/**
 * The simulator's signing keys. Messages are signed as the platform signs them
 * (src/webhook-crypto/signing.ts), the code match-venue/webhooks' verifiers and test signers share,
 * so the simulator's deliveries verify with exactly the code users verify real deliveries with.
 */
import { generateKeyPairSync, type KeyObject, randomUUID } from 'node:crypto';
import { selfSignedCertificate } from '../../webhook-crypto/self-signed-certificate.js';
import type { SnsMessage, SnsSignatureVersion, UnsignedSnsMessage } from '../../contract/sns-message.js';
import type { V2PublicKeyData } from '../../contract/v2-webhook.js';
import {
  type SignedV2Delivery,
  signSnsMessage,
  signV2Delivery,
  v2PublicKeyRecord,
} from '../../webhook-crypto/signing.js';

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

/** Where SigningCertURL points while signing; the simulator sets its own URL afterwards. */
const SIGNING_CERT_URL = 'http://127.0.0.1/_sim/sns/cert.pem';

let rsaKeyPair: { privateKey: KeyObject; publicKey: KeyObject } | undefined;

/**
 * A self-signed certificate over an RSA key, and a fresh P-256 key with a random id. The 2048-bit
 * RSA key pair is generated once per process (it takes a noticeable moment and simulators are
 * created per test); each platform still gets its own certificate and v2 key.
 */
export function createDefaultSigners(): PlatformSigners {
  rsaKeyPair ??= generateKeyPairSync('rsa', { modulusLength: 2048 });
  const rsa = rsaKeyPair;
  const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const keyId = randomUUID();
  return {
    sns: {
      certificatePem: selfSignedCertificate(rsa),
      sign: (message, version = '2') =>
        signSnsMessage(message, { version, certificateUrl: SIGNING_CERT_URL, privateKey: rsa.privateKey }),
    },
    v2: {
      keyId,
      // Wall clock, like the certificate's validity (which receivers check on theirs): when the
      // key was really made, not simulated venue state.
      publicKeyRecord: v2PublicKeyRecord(keyId, ec.publicKey, new Date().toISOString()),
      sign: (body) => signV2Delivery(body, { keyId, privateKey: ec.privateKey }),
    },
  };
}
