import type { ClientCore } from './api-client.js';
import { APIUserAbortError, InvalidArgumentError, OutcomeUnknownError } from './error.js';
import type { RequestOptions } from './request.js';
import { sleep } from './retry.js';

// One meaning of `resolveUnknown` for every resource: look for what the uncertain call would have
// made, and say whether an absence is final. It is final only once the settle window has passed
// since the last attempt that may have reached the venue; before that an attempt held somewhere
// on the way can still land.

/** Nothing was found, and no attempt can land any more: calling again is a new, definite call. */
export interface FinalAbsence {
  /** Nothing exists for the call. */
  status: 'absent';
  /** No attempt can land any more. */
  final: true;
}

/** Nothing was found yet, but an earlier attempt can still land until `settlesAt`. */
export interface PendingAbsence {
  /** Nothing exists for the call now. */
  status: 'absent';
  /** An earlier attempt can still land. */
  final: false;
  /** When the absence becomes final (pass `{ wait: true }` to wait for it). */
  settlesAt: Date;
}

/** What `resolveUnknown` found out about an uncertain call. */
export type Absence = FinalAbsence | PendingAbsence;

/** Options of every `resolveUnknown`: the per-call options, and whether to wait for a final answer. */
export interface ResolveOptions extends RequestOptions {
  /**
   * When nothing is found before the settle window has passed, wait until it has and look once
   * more, so that the answer is final (found, or absent for good). `signal` cuts the wait short
   * (APIUserAbortError). Default false.
   */
  wait?: boolean;
}

/**
 * Resolves an uncertain call: `look` is the resource's way of finding what the call would have
 * made (undefined when absent). The key's entry in the client's ledger says when an absence is
 * final; a key the ledger does not know (settled meanwhile, or from another client) is judged by
 * the error's `settlesAt`, and a bare key with no record at all counts as unknown from now, which
 * is never too early.
 */
export async function resolveUnknownKey<T>(
  client: ClientCore,
  target: { key: string | undefined; operation: string; settlesAt?: Date | undefined; request?: unknown },
  look: () => Promise<T | undefined>,
  options: ResolveOptions | undefined,
): Promise<{ status: 'found'; value: T } | Absence> {
  const { key } = target;
  const now = () => client.unknownKeys.now();
  const settlesAt = (): number => {
    const entry = key === undefined ? undefined : client.unknownKeys.get(key);
    const known = Math.max(entry?.settlesAt ?? 0, target.settlesAt?.getTime() ?? 0);
    if (known > 0 || key === undefined) return known;
    return client.unknownKeys.markAmbiguous(key, target.operation, target.request).settlesAt;
  };
  let deadline = settlesAt();
  // This client treats the key as unknown until then too, from before its look: a look that is a
  // keyed re-send (withdrawals) and the README's recipe (call again with the same key) must not
  // meet a refusal they take for definite, whichever client made the first attempt.
  if (key !== undefined) client.unknownKeys.remember(key, target.operation, target.request, deadline);
  for (;;) {
    const found = await look();
    if (found !== undefined) {
      if (key !== undefined) client.unknownKeys.settle(key);
      return { status: 'found', value: found };
    }
    // An attempt made while looking (a retried look that timed out) moves the deadline on.
    deadline = Math.max(deadline, settlesAt());
    if (deadline <= now()) return { status: 'absent', final: true };
    if (!options?.wait) return { status: 'absent', final: false, settlesAt: new Date(deadline) };
    await waitUntil(deadline - now(), options.signal);
  }
}

/** Waits `remainingMs` (and 1 ms more, past the deadline) with the contract's sleep; the signal ends it. */
async function waitUntil(remainingMs: number, signal: AbortSignal | undefined): Promise<void> {
  try {
    await sleep(Math.max(0, remainingMs) + 1, signal);
  } catch (reason) {
    throw new APIUserAbortError('resolveUnknown was aborted.', { cause: reason });
  }
}

/** The error, if it is an OutcomeUnknownError of `operation`; else an InvalidArgumentError naming both. */
export function outcomeOf(error: unknown, operation: string, method: string): OutcomeUnknownError {
  if (!(error instanceof OutcomeUnknownError)) {
    throw new InvalidArgumentError(`${method}: expected an OutcomeUnknownError of ${operation}`);
  }
  if (error.operation !== operation) {
    throw new InvalidArgumentError(`${method} expects a ${operation} outcome, got ${error.operation}`);
  }
  return error;
}
