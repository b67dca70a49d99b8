/**
 * A scenario checked in full before a simulator is built from it: the schema, then the rules
 * across fields. A mistake is a ScenarioError naming the path (`phases[1].market.noise.size`) and
 * the rule, so that nothing starts from a file that does not say what its author meant.
 */
import type { z } from 'zod';
import { MatchVenueError } from '../../contract/base-error.js';
import { startTimeMs } from '../clock/start-time.js';
import { type MarketConfig, type MarketOption, resolveMarket } from '../market/config.js';
import { ScenarioSchema } from './schema.js';
import type { ScenarioClock, ScenarioEntity, ScenarioFaultEntry } from './types.js';

/** A scenario that cannot be used: `path` is where, the message names it and the rule. */
export class ScenarioError extends MatchVenueError {
  static override readonly kind = 'SIM_SCENARIO_INVALID';
  /** Always `ScenarioError`. */
  override name = 'ScenarioError';
  constructor(
    /** Where in the document, e.g. `phases[1].market.noise.size` (empty: the document itself). */
    readonly path: string,
    /** The rule broken. */
    readonly rule: string,
    /** The file (or other source) the document came from, when known. */
    readonly source?: string,
  ) {
    super(`${source ? `${source}: ` : 'scenario: '}${path ? `${path} ` : ''}${rule}`);
  }
}

/** A market phase, resolved: `config` null is no background market from `fromAuction` on. */
export interface ScenarioPhase {
  /** The phase's first auction. */
  fromAuction: number;
  /** As written (what the event log records). */
  market: MarketOption | null;
  /** Resolved over its preset. */
  config: MarketConfig | null;
}

/** A scenario, checked, with its markets resolved over their presets. */
export interface ResolvedScenario {
  /** The seed, when the scenario names one. */
  seed?: number;
  /** Its clock settings. */
  clock: ScenarioClock;
  /** Entities by name. */
  entities: Readonly<Record<string, ScenarioEntity>>;
  /** The market phases, ascending. */
  phases: readonly ScenarioPhase[];
  /** The fault schedule, ascending. */
  faults: readonly ScenarioFaultEntry[];
}

const SEEDED_NAMES = new Set(['burner', 'minter', 'ineligible', 'noaccount']);

/** `phases[1].market.noise` from a zod path. */
export function formatPath(path: readonly PropertyKey[]): string {
  return path
    .map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i === 0 ? '' : '.'}${String(p)}`))
    .join('');
}

/**
 * The issue to report: inside a union (a market is a preset name or an object) the branch that
 * matched the value's type goes deeper than "invalid input", so its issue is the one named.
 */
function deepest(issue: z.core.$ZodIssue): { path: PropertyKey[]; message: string } {
  if (issue.code === 'invalid_union' && issue.errors.length > 0) {
    const branches = issue.errors.map((e) => e[0]).filter((e) => e !== undefined);
    const typed = branches.filter((b) => !(b.code === 'invalid_type' && b.path.length === 0));
    const pick = typed.length === 1 ? typed[0] : undefined;
    if (pick) {
      const inner = deepest(pick);
      return { path: [...issue.path, ...inner.path], message: inner.message };
    }
  }
  // A record's key: the key's own rule (its pattern) says more than "invalid key".
  if (issue.code === 'invalid_key' && issue.issues[0])
    return { path: [...issue.path], message: issue.issues[0].message };
  return { path: [...issue.path], message: issue.message };
}

/** Checks a parsed scenario document; throws ScenarioError naming `source`, the path and the rule. */
export function checkScenario(value: unknown, source?: string): ResolvedScenario {
  const fail = (path: string, rule: string): never => {
    throw new ScenarioError(path, rule, source);
  };
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    fail('', 'must be a scenario object (version: 1, ...)');
  const version = (value as { version?: unknown }).version;
  if (version === undefined) fail('version', 'is required: version: 1 (the scenario format)');
  if (version !== 1)
    fail('version', `${JSON.stringify(version)} is not supported: this simulator reads version 1 only`);
  const r = ScenarioSchema.safeParse(value);
  if (!r.success) {
    const first = r.error.issues[0];
    const { path, message } = first ? deepest(first) : { path: [], message: 'is invalid' };
    return fail(formatPath(path), message);
  }
  const doc = r.data;
  const clock = doc.clock ?? {};
  if (clock.startTime !== undefined) {
    try {
      startTimeMs(clock.startTime, 0);
    } catch (err) {
      fail('clock.startTime', (err as Error).message.replace(/^startTime /, ''));
    }
  }
  if (clock.lockMs !== undefined && clock.lockMs >= (clock.cycleMs ?? 10_000))
    fail('clock.lockMs', `must be shorter than clock.cycleMs (${clock.cycleMs ?? 10_000})`);
  for (const [name, e] of Object.entries(doc.entities ?? {})) {
    if (name === 'noaccount') fail(`entities.${name}`, 'has no venue account: it holds no balances');
    if (SEEDED_NAMES.has(name) && e.fundingSide !== undefined)
      fail(`entities.${name}.fundingSide`, 'applies to a new entity only: a seeded entity keeps its side');
    if (/^(noise|lp)-/.test(name))
      fail(`entities.${name}`, 'must not start with noise- or lp- (the background participants’ names)');
  }
  const ascending = (list: readonly number[], key: string, at: string) =>
    list.forEach((n, i) => {
      if (i > 0 && n <= (list[i - 1] as number))
        fail(`${at}[${i}].${key}`, `must be greater than ${at}[${i - 1}].${key} (${list[i - 1]})`);
    });
  const phases = doc.phases ?? [];
  ascending(
    phases.map((p) => p.fromAuction),
    'fromAuction',
    'phases',
  );
  const faults = doc.faults ?? [];
  ascending(
    faults.map((f) => f.atAuction),
    'atAuction',
    'faults',
  );
  const resolved = phases.map((p, i) => {
    let config: MarketConfig | null = null;
    if (p.market !== null) {
      try {
        config = resolveMarket(p.market, `phases[${i}].market`);
      } catch (err) {
        const [path = '', ...rest] = (err as Error).message.split(' ');
        fail(path.replace(/:$/, ''), rest.join(' '));
      }
    }
    return { fromAuction: p.fromAuction, market: p.market as MarketOption | null, config };
  });
  return {
    ...(doc.seed === undefined ? {} : { seed: doc.seed }),
    clock,
    entities: doc.entities ?? {},
    phases: resolved,
    faults: faults.map((f) => ({ atAuction: f.atAuction, set: f.set })),
  };
}
