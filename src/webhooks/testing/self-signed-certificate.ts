import {
  type SelfSignedCertificateOptions,
  selfSignedCertificate,
} from '../../webhook-crypto/self-signed-certificate.js';
import { InvalidArgumentError } from '../../core/base-error.js';

export type { SelfSignedCertificateOptions } from '../../webhook-crypto/self-signed-certificate.js';

/**
 * Builds a minimal self-signed X.509 v3 certificate (no extensions) for an RSA key, signed with
 * sha256WithRSAEncryption, and returns it as PEM. For tests and the simulator: it proves key
 * possession to a verifier that already trusts the URL it came from, nothing more.
 */
export function createSelfSignedCertificate(options: SelfSignedCertificateOptions): string {
  if (options.privateKey.asymmetricKeyType !== 'rsa' || options.publicKey.asymmetricKeyType !== 'rsa') {
    throw new InvalidArgumentError('createSelfSignedCertificate needs an RSA key pair');
  }
  return selfSignedCertificate(options);
}
