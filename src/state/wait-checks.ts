import { InvalidArgumentError } from '../core/base-error.js';
import { ValidationError } from '../core/error.js';
import { isUuid } from '../core/validation.js';
import type { VenueStream } from '../stream/api.js';
import type { AccountMirror, WaitForOutcomeOptions } from './api.js';

// The checks of the waits' arguments, made when the call is made (a bad argument rejects before
// anything is sent or loaded); the waits themselves (order-outcome.ts, mirror-wait.ts) load on
// first use (load.ts).

/** An order id argument that is not a UUID, as the ValidationError to reject with before sending. */
export function badOrderId(value: unknown, context: string): ValidationError | undefined {
  if (typeof value === 'string' && isUuid(value)) return undefined;
  return new ValidationError(context, [
    {
      path: 'orderId',
      rule: typeof value === 'string' && value !== '' ? 'must be a UUID' : 'is required',
      kind: typeof value === 'string' ? 'invalid_format' : 'invalid_type',
    },
  ]);
}

/** A non-negative number of milliseconds, or undefined; named in the error otherwise. */
export function checkMs(value: unknown, name: string, context: string): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
    throw new InvalidArgumentError(
      `${context}: ${name} must be a non-negative number of milliseconds, got ${String(value)}`,
    );
}

/** An AbortSignal, or undefined; named in the error otherwise. */
export function checkSignal(value: unknown, context: string): void {
  if (value === undefined) return;
  if (
    typeof value !== 'object' ||
    value === null ||
    typeof (value as AbortSignal).addEventListener !== 'function'
  )
    throw new InvalidArgumentError(`${context}: signal must be an AbortSignal`);
}

/** Checks the options, naming the one it cannot use. */
export function checkOutcomeOptions(options: WaitForOutcomeOptions | undefined): void {
  const context = 'orders.waitForOutcome';
  if (options === undefined) return;
  checkMs(options.timeout, 'timeout', context);
  checkMs(options.childGraceMs, 'childGraceMs', context);
  const poll = options.pollIntervalMs;
  if (poll !== undefined && !(typeof poll === 'number' && Number.isFinite(poll) && poll >= 1))
    throw new InvalidArgumentError(
      `${context}: pollIntervalMs must be a number of milliseconds >= 1, got ${String(poll)}`,
    );
  checkSignal(options.signal, context);
  const s = options.stream as Partial<VenueStream & AccountMirror> | null | undefined;
  if (s !== undefined && typeof s?.account !== 'function' && typeof s?.changes !== 'function')
    throw new InvalidArgumentError(`${context}: stream must be an open VenueStream or AccountMirror`);
}
