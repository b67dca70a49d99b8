/**
 * The verdicts of the placement chaos (bench/chaos/placements.ts): how one call is made the way
 * the README tells a bot to (`followRecipe`), and how the calls are judged against the
 * simulator's state at the end (`judge`).
 */
import { describeError } from './support.js';

export interface CreateChaosReport {
  operation: 'orders.place' | 'withdrawals.create';
  calls: number;
  accepted: number;
  /** Definite API errors (4xx answered to the caller). */
  refused: number;
  refusedByCode: Record<string, number>;
  unknown: number;
  /** The last attempt's error of each OutcomeUnknownError. */
  unknownCauses: Record<string, number>;
  /** Any other error (e.g. a connection error not reported as OutcomeUnknownError). */
  other: number;
  otherKinds: Record<string, number>;
  /** Calls whose order (withdrawal) exists at the end. */
  existing: number;
  falseRefusals: number;
  falseRefusalsByCode: Record<string, number>;
  falseAccepts: number;
  /** Other errors whose order (withdrawal) exists anyway. */
  otherButExisting: number;
  duplicates: number;
  unknownSettledCorrectly: number;
  unknownSettledWrongly: number;
  /** Of those: resolveUnknown found nothing, then an attempt still in flight made the record. */
  unknownSaidNoneThenLanded: number;
  /** Calls that met OutcomeUnknownError and went through the recipe (look up, then send again). */
  recipeFollowed: number;
  /** Of those, the lookup found nothing and the same key was sent again. */
  recipeResent: number;
  /** Lookups that answered "absent for good" while the record exists at the end. */
  finalAbsenceButExists: number;
  /** A few keys of false refusals, to look up in a debugger. */
  examples: string[];
}

export type Verdict =
  | { kind: 'accepted' }
  | { kind: 'refused'; code: string }
  | { kind: 'unknown'; settled: boolean | 'error'; cause: string }
  | { kind: 'other'; what: string };

export interface Call {
  key: string;
  verdict: Verdict;
  /** The recipe ran: the lookup's answer, and whether the same key was sent again. */
  recipe?: { lookup: Lookup; resent: boolean };
}

/** What a `resolveUnknown` said, in either API: found, absent for good, absent for now. */
type Lookup = 'found' | 'absent-final' | 'absent-now' | 'error';

/** The answer of `resolveUnknown` in this tree's API, or an older one (null or the record). */
function lookupOf(answer: unknown): Lookup {
  if (answer === null || answer === undefined) return 'absent-now';
  const a = answer as { status?: unknown; final?: unknown };
  if (a.status === 'absent') return a.final === true ? 'absent-final' : 'absent-now';
  return 'found';
}

function emptyReport(operation: CreateChaosReport['operation'], calls: number): CreateChaosReport {
  return {
    operation,
    calls,
    accepted: 0,
    refused: 0,
    refusedByCode: {},
    unknown: 0,
    unknownCauses: {},
    other: 0,
    otherKinds: {},
    existing: 0,
    falseRefusals: 0,
    falseRefusalsByCode: {},
    falseAccepts: 0,
    otherButExisting: 0,
    duplicates: 0,
    unknownSettledCorrectly: 0,
    unknownSettledWrongly: 0,
    unknownSaidNoneThenLanded: 0,
    recipeFollowed: 0,
    recipeResent: 0,
    finalAbsenceButExists: 0,
    examples: [],
  };
}

const bump = (counts: Record<string, number>, key: string) => {
  counts[key] = (counts[key] ?? 0) + 1;
};

export function judge(
  operation: CreateChaosReport['operation'],
  calls: Call[],
  exists: (key: string) => boolean,
  recordsOfKeys: number,
): CreateChaosReport {
  const r = emptyReport(operation, calls.length);
  for (const { key, verdict, recipe } of calls) {
    const there = exists(key);
    if (there) r.existing++;
    if (recipe) {
      r.recipeFollowed++;
      if (recipe.resent) r.recipeResent++;
      if (recipe.lookup === 'absent-final' && there) r.finalAbsenceButExists++;
    }
    switch (verdict.kind) {
      case 'accepted':
        r.accepted++;
        if (!there) r.falseAccepts++;
        break;
      case 'refused':
        r.refused++;
        bump(r.refusedByCode, verdict.code);
        if (there) {
          r.falseRefusals++;
          bump(r.falseRefusalsByCode, verdict.code);
          if (r.examples.length < 5) r.examples.push(`${key} (${verdict.code})`);
        }
        break;
      case 'unknown':
        r.unknown++;
        bump(r.unknownCauses, verdict.cause);
        if (verdict.settled === there) r.unknownSettledCorrectly++;
        else {
          r.unknownSettledWrongly++;
          if (verdict.settled === false && there) r.unknownSaidNoneThenLanded++;
        }
        break;
      case 'other':
        r.other++;
        bump(r.otherKinds, verdict.what);
        if (there) r.otherButExisting++;
        break;
    }
  }
  r.duplicates = recordsOfKeys - r.existing;
  return r;
}

function isNamed(err: unknown, name: string): boolean {
  return err instanceof Error && err.name === name;
}

/** A definite answer from the venue: an API error with a 4xx status other than 408 and 429. */
export function refusalCode(err: unknown): string | undefined {
  if (!(err instanceof Error)) return undefined;
  const e = err as Error & { status?: unknown; venueCode?: unknown };
  if (typeof e.status !== 'number') return undefined;
  if (e.status >= 400 && e.status < 500 && e.status !== 408 && e.status !== 429) {
    return `${e.status} ${String(e.venueCode)}`;
  }
  return undefined;
}

/** The verdict of a call that failed with `err`, other than OutcomeUnknownError. */
function failed(err: unknown): Verdict {
  const code = refusalCode(err);
  if (code !== undefined) return { kind: 'refused', code };
  return { kind: 'other', what: describeError(err) };
}

/**
 * One call as the README tells a bot to make it: send; on OutcomeUnknownError look it up with
 * `resolveUnknown`, and when nothing is found send the same request (same key) again. That second
 * answer is the verdict; an OutcomeUnknownError then is settled with `resolveUnknown(err, { wait:
 * true })`, whose answer is checked against the final state.
 */
export async function followRecipe(
  send: () => Promise<boolean>,
  lookup: (err: unknown, wait: boolean) => Promise<unknown>,
): Promise<Pick<Call, 'verdict' | 'recipe'>> {
  const attempt = async (): Promise<Verdict | { unknown: unknown }> => {
    try {
      return (await send()) ? { kind: 'accepted' } : { kind: 'other', what: 'accepted-wrong-id' };
    } catch (err) {
      return isNamed(err, 'OutcomeUnknownError') ? { unknown: err } : failed(err);
    }
  };
  const first = await attempt();
  if (!('unknown' in first)) return { verdict: first };
  let found: Lookup;
  try {
    found = lookupOf(await lookup(first.unknown, false));
  } catch {
    found = 'error';
  }
  if (found === 'found') return { verdict: { kind: 'accepted' }, recipe: { lookup: found, resent: false } };
  const second = found === 'error' ? first : await attempt();
  const recipe = { lookup: found, resent: found !== 'error' };
  if (!('unknown' in second)) return { verdict: second, recipe };
  let settled: boolean | 'error';
  try {
    settled = lookupOf(await lookup(second.unknown, true)) === 'found';
  } catch {
    settled = 'error';
  }
  const cause = describeError((second.unknown as Error).cause);
  return { verdict: { kind: 'unknown', settled, cause }, recipe };
}
