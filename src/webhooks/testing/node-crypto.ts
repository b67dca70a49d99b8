import type * as NodeCrypto from 'node:crypto';
import { nodeCrypto } from '../../webhook-crypto/node-crypto.js';
import { WebhookError } from '../errors.js';

/**
 * `node:crypto` for the test signers, which make and use KeyObjects (Node, Bun, Deno); on a runtime
 * without it (an edge worker) creating a signer is `WEBHOOK_CONFIG_INVALID`, while verifying there
 * still works through WebCrypto.
 */
export function signerCrypto(signer: string): typeof NodeCrypto {
  const crypto = nodeCrypto();
  if (!crypto) {
    throw new WebhookError(
      'WEBHOOK_CONFIG_INVALID',
      `${signer} needs node:crypto (Node, Bun or Deno); this runtime has none. Verifiers need only WebCrypto.`,
    );
  }
  return crypto;
}
