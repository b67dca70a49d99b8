/**
 * The DER encoding of src/webhook-crypto/der.ts (the simulator's certificates are built with it too),
 * with `integer` refusing a negative value as a typed error.
 */

import { integer as derInteger } from '../../webhook-crypto/der.js';
import { InvalidArgumentError } from '../../core/base-error.js';

export {
  bitString,
  explicit,
  nullValue,
  oid,
  sequence,
  set,
  time,
  tlv,
  utf8String,
} from '../../webhook-crypto/der.js';

/** A non-negative INTEGER. */
export function integer(value: bigint): Uint8Array {
  if (value < 0n) throw new InvalidArgumentError('der.integer encodes non-negative values only');
  return derInteger(value);
}
