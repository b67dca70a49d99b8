/**
 * createSimulator's options, each resolved and checked once here (resolveOptions: an option given
 * over the scenario's over the default), and the engine configuration drawn from them.
 */
import { MAX_DURATION_MS, startTimeMs } from './clock/start-time.js';
import { type Faults, FaultsBody } from './engine/faults.js';
import { parseCentiBps, parseCents } from './engine/money.js';
import { DEFAULT_ENGINE_CONFIG, type EngineConfig } from './engine/types.js';
import type { EventLogOption } from './events/event-log.js';
import type { Logger } from './events/logger.js';
import { MAX_BODY_BYTES, MAX_RESTORE_BYTES } from './http/body.js';
import type { RateLimitOptions } from './http/rate-limit.js';
import { type MarketConfig, type MarketOption, resolveMarket } from './market/config.js';
import { checkScenario, type ResolvedScenario, ScenarioError } from './scenario/check.js';
import { initialFaults, scenarioMarket } from './scenario/run.js';
import type { ScenarioDocument } from './scenario/types.js';
import type { StoreOption } from './store/simulator-store.js';

export type { Logger } from './events/logger.js';

/** Options of {@link createSimulator}; every one has a default. */
export interface SimulatorOptions {
  /** 'manual' (default): time moves only by advance()/clearAuction(); 'real': timers drive phases. */
  clock?: 'real' | 'manual';
  /**
   * The simulated clock's reading when the simulator is created: a Date, an ISO 8601 string with
   * `Z` or an offset, or epoch ms. Default: the wall-clock time at creation (as fake timers do), so
   * `createdAt` and ticket expiries read as "now". Fix it for byte-identical replays. A real clock
   * then runs on from it at wall-clock speed.
   */
  startTime?: Date | number | string;
  /** Auction length, open to clear, ms. Default 10000. */
  cycleMs?: number;
  /** Lock window before the clear, ms; shorter than cycleMs. Default 2000. */
  lockMs?: number;
  /** Clear to settlement, ms. Default 1000. */
  settleMs?: number;
  /** Orders one entity may place per auction (137008 beyond). Default 50. */
  maxOrdersPerAuction?: number;
  /** Per-transaction limit for orders and withdrawals, a USD decimal string. Default '10000000.00'. */
  transactionLimit?: string;
  /** Clearing fee when no limit order is present, basis points. Default '5'. */
  referenceFeeBps?: string;
  /** A withdrawal moves from pending to processing this many ms after it is created. Default 1000. */
  withdrawalProcessingMs?: number;
  /** ...and to completed this many ms after it is created. Default 3000. */
  withdrawalCompleteMs?: number;
  /** The account summary's activity window, ms. Default 24 h. */
  activityWindowMs?: number;
  /** Seeds fault draws (error rate, settlement failure rate) and the background market. */
  seed?: number;
  /**
   * A background market: a seeded population of synthetic participants placing orders in every
   * auction (docs/MARKET.md): a preset (`'calm'`, `'busy'`, `'one-sided'`) or a configuration over
   * one. Off by default: the venue stays empty unless asked.
   */
  market?: MarketOption;
  /**
   * A scenario (docs/MARKET.md, Scenarios; `loadScenario(file)` reads one): entities and balances,
   * the market by auction number, a fault schedule, clock settings and the seed. An option given
   * here as well wins over the scenario's. A mistake throws a ScenarioError naming the path.
   */
  scenario?: ScenarioDocument;
  /**
   * The replayable event log (`GET /_sim/log`, `sim.eventLog()`): every venue event and control
   * action as NDJSON, in a ring of this many lines (`true`: 10,000; at most 5,000,000) and of at
   * most 64 MiB, or `{lines, bytes}` (bytes 4096 to 256 MiB); a line past 64 KiB is summarised.
   * Off by default: with it on every event is built, which costs at books of a million orders.
   */
  eventLog?: EventLogOption;
  /**
   * A SQLite file (or `{ file, retainMs, checkpointMs }`) for the order history (docs/MARKET.md,
   * Long runs): final orders older than `retainMs` (default 60 s of simulated time) leave memory for
   * the file, and a simulator created on the file resumes at its last checkpoint (every
   * `checkpointMs`, default 30 simulated minutes, and at close). Needs the optional dependency
   * better-sqlite3 12.x. Off by default: everything stays in memory.
   */
  store?: StoreOption;
  /** 429 with Retry-After past this many requests per API key per window. Off by default. */
  rateLimit?: RateLimitOptions;
  /** Receives unexpected handler errors (500s). Default: console.error, info silent. */
  logger?: Logger;
  /** Platform (webhooks) environment rules. Default 'sandbox'. */
  platformMode?: 'sandbox' | 'production';
  /** fetch used for webhook deliveries. Default globalThis.fetch. */
  fetch?: typeof fetch;
  /**
   * Resolves webhook endpoint host names for the private-address check that applies while the
   * simulator listens off loopback (listen's `allowPrivateWebhooks`): every address the name has.
   * Default node:dns `lookup(name, { all: true })`; tests pass one that needs no DNS.
   */
  webhookLookup?: (hostname: string) => Promise<
    readonly {
      /** One address of the name, IPv4 or IPv6. */
      address: string;
    }[]
  >;
  /** Lifetime of WebSocket tickets on the simulator clock, ms. Default 30000. */
  ticketTtlMs?: number;
  /**
   * The largest `POST /_sim/restore` body, bytes: an integer from 1 MiB (1048576) to the default,
   * 536870888 (2^29 - 24, the longest text a snapshot can be), else a RangeError. Other bodies
   * stay within 1 MiB; a busy market's snapshot is far past it (docs/MARKET.md, Snapshots).
   */
  restoreLimitBytes?: number;
  /**
   * The fault set at creation and after each reset (as `setFaults` takes it; CLI `--faults` sets
   * its `presets`), over a scenario's auction-1 set field by field. A mistake is a RangeError
   * naming the field and its rule (an unknown preset: the name and the valid ones).
   */
  faults?: Faults;
}

/** What an option given neither explicitly nor by the scenario becomes. */
export interface OptionDefaults {
  /** The clock when neither `clock` nor the scenario's `clock.mode` names one. */
  clock: 'real' | 'manual';
}

/** createSimulator's defaults; the CLI's clock is real (cli.ts). */
export const LIBRARY_DEFAULTS: OptionDefaults = { clock: 'manual' };

/** The options resolved and checked: `clock` decided, `startMs`, `market`, the limits and the engine's part. */
export interface ResolvedOptions {
  options: SimulatorOptions & { clock: 'real' | 'manual' };
  /** `startTime` as epoch ms (the wall clock's now when absent). */
  startMs: number;
  market: MarketConfig | undefined;
  restoreLimitBytes: number;
  config: Partial<EngineConfig>;
  scenario?: ResolvedScenario;
  /** The fault set to start with: a scenario's auction-1 set, under `faults` (checked). */
  faults: Faults;
}

/**
 * The one place an option is decided and checked: given explicitly (a CLI flag or createSimulator's
 * option) over the scenario's (`seed`, `clock`, `startTime`, `cycleMs`, `lockMs`, `settleMs` one by
 * one, and `market` over the scenario's whole population, whose phases are then not used) over
 * `defaults`. The checks run in this order: the scenario, `startTime`, the market (an explicit one
 * by resolveMarket; the scenario's was checked with it), `restoreLimitBytes`, the engine's part.
 */
export function resolveOptions(given: SimulatorOptions, defaults = LIBRARY_DEFAULTS): ResolvedOptions {
  // An option present but undefined is an option not given.
  const explicit = Object.fromEntries(
    Object.entries(given).filter(([, v]) => v !== undefined),
  ) as SimulatorOptions;
  const checked = given.scenario === undefined ? undefined : checkScenario(given.scenario);
  const scenario = checked && explicit.market !== undefined ? { ...checked, phases: [] } : checked;
  const { mode, startTime, cycleMs, lockMs, settleMs } = scenario?.clock ?? {};
  const fromScenario: SimulatorOptions = {
    ...(startTime === undefined ? {} : { startTime }),
    ...(cycleMs === undefined ? {} : { cycleMs }),
    ...(lockMs === undefined ? {} : { lockMs }),
    ...(settleMs === undefined ? {} : { settleMs }),
    ...(scenario?.seed === undefined ? {} : { seed: scenario.seed }),
  };
  const options = { ...fromScenario, ...explicit, clock: explicit.clock ?? mode ?? defaults.clock };
  // The scenario's cycle against the lock it runs with (its own, an option's or the default): a
  // mistake of the file is a ScenarioError naming it, not the engine's RangeError later.
  const lock = options.lockMs ?? DEFAULT_ENGINE_CONFIG.lockMs;
  if (explicit.cycleMs === undefined && cycleMs !== undefined && lock >= cycleMs)
    throw new ScenarioError('clock.cycleMs', `must be longer than the lock window (lockMs ${lock})`);
  const startMs = startTimeMs(options.startTime, Date.now());
  const market =
    explicit.market === undefined ? scenario && scenarioMarket(scenario) : resolveMarket(explicit.market);
  const restoreLimitBytes = restoreLimit(options.restoreLimitBytes);
  const config = engineConfig(options);
  const faults = { ...(scenario ? initialFaults(scenario) : {}), ...checkFaults(explicit.faults) };
  return { options, startMs, market, restoreLimitBytes, config, faults, ...(scenario ? { scenario } : {}) };
}

/** The `faults` option by the rules of `POST /_sim/faults`; a RangeError names the field. */
function checkFaults(value: Faults | undefined): Faults {
  if (value === undefined) return {};
  const r = FaultsBody.safeParse(value);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  throw new RangeError(`faults${issue?.path.map((p) => `.${String(p)}`).join('') ?? ''}: ${issue?.message}`);
}

/** `restoreLimitBytes`, checked; the default when absent. */
export function restoreLimit(value: number | undefined): number {
  if (value === undefined) return MAX_RESTORE_BYTES;
  if (!Number.isInteger(value) || value < MAX_BODY_BYTES || value > MAX_RESTORE_BYTES)
    throw new RangeError(
      `restoreLimitBytes must be an integer from 1048576 (1 MiB) to ${MAX_RESTORE_BYTES} (2^29 - 24); got ${value}`,
    );
  return value;
}

const DURATIONS = [
  ['cycleMs', 1],
  ['lockMs', 0],
  ['settleMs', 0],
  ['withdrawalProcessingMs', 0],
  ['withdrawalCompleteMs', 0],
  ['activityWindowMs', 0],
] as const;

/** The engine's part of the options, checked. */
export function engineConfig(o: SimulatorOptions): Partial<EngineConfig> {
  const c: Partial<EngineConfig> = {};
  for (const [name, min] of DURATIONS) {
    const value = o[name];
    if (value === undefined) continue;
    if (!Number.isInteger(value) || value < min || value > MAX_DURATION_MS)
      throw new RangeError(
        `${name} must be an integer from ${min} to ${MAX_DURATION_MS} ms (a year); got ${value}`,
      );
    c[name] = value;
  }
  if (o.maxOrdersPerAuction !== undefined) c.maxOrdersPerAuction = o.maxOrdersPerAuction;
  if (o.transactionLimit !== undefined) {
    const cents = parseCents(o.transactionLimit);
    if (cents === undefined || cents <= 0)
      throw new RangeError('transactionLimit must be a positive USD amount');
    c.transactionLimitCents = cents;
  }
  if (o.referenceFeeBps !== undefined) {
    const centi = parseCentiBps(o.referenceFeeBps);
    if (centi === undefined) throw new RangeError('referenceFeeBps must be a non-negative decimal string');
    c.referenceFeeCentiBps = centi;
  }
  return c;
}
