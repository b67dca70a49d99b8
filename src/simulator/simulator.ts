/**
 * The composition root: engine + clock + fault injection + tickets + platform, and the ports its
 * HTTP and WebSocket bindings are served through (http/port.ts, ws/server.ts, serve/listen.ts).
 */
import { type AdvanceOptions, ClockJumps } from './clock/clock-jump.js';
import { SimClock } from './clock/sim-clock.js';
import type { WireInput } from './engine/bank-wires.js';
import { VenueEngine } from './engine/engine.js';
import { type FaultSettings, FaultState, type Faults } from './engine/faults.js';
import type { WireAuction } from './engine/rest-shapes.js';
import type { EngineConfig, SimulatorEvent } from './engine/types.js';
import { EventFanout, type EventInterest } from './events/event-fanout.js';
import { type EventLog, newEventLog } from './events/event-log.js';
import { dispatch, handleRequest, type Inbound, type Outcome, type ResolvedRoute } from './http/handler.js';
import type { MaybeAsync } from './http/maybe-async.js';
import type { SimulatorPort } from './http/port.js';
import type { MarketConfig } from './market/config.js';
import { type MarketPopulation, populationFor } from './market/population.js';
import { type Logger, type OptionDefaults, resolveOptions, type SimulatorOptions } from './options.js';
import { createPlatform, type Platform } from './platform/index.js';
import type { ResolvedScenario } from './scenario/check.js';
import { ScenarioRun } from './scenario/run.js';
import { type ListenOptions, listen, type RunningSimulator } from './serve/listen.js';
import { RunningServers } from './serve/running-servers.js';
import { simulatorPort } from './simulator-port.js';
import { SimulatorReads } from './simulator-reads.js';
import type { ControlSignal, EventLogView, SimulatorStateView } from './simulator-types.js';
import * as snapshots from './snapshot/document.js';
import { SimulatorStore, type StoreSource } from './store/simulator-store.js';
import { lazyTicketIssuer, type TicketIssuer } from './ws/tickets.js';

export type { Logger, OptionDefaults, SimulatorOptions } from './options.js';
export type { ControlSignal, EntityRef, EventLogView, SimulatorStateView } from './simulator-types.js';

/** A simulated venue: engine + clock + HTTP handler + tickets + platform + fault injection. */
export class Simulator extends SimulatorReads {
  /** `manual`: time moves only by advance() and the controls; `real`: timers drive the cycle. */
  readonly clock: 'real' | 'manual';
  /** Where the simulator reports unexpected failures. */
  readonly logger: Logger;
  /** The largest `POST /_sim/restore` body read (the `restoreLimitBytes` option). */
  readonly restoreLimitBytes: number;
  /** Issues and verifies WebSocket tickets (ES256, single use, on the simulator clock). @internal */
  readonly tickets: TicketIssuer;
  /** The platform side (configuration, webhook subscriptions and deliveries). @internal */
  readonly platform: Platform;
  private readonly events: EventFanout;
  private readonly controlListeners = new Set<(signal: ControlSignal) => void>();
  private readonly faultState: FaultState;
  private readonly port: SimulatorPort;
  private readonly time: SimClock;
  /** The background market's configuration (checked at creation, or restored), and its population now. */
  private market: MarketConfig | undefined;
  /** The engine's seed and configuration: the options', until a restore brings a document's. */
  private seed: number;
  private config: Partial<EngineConfig>;
  private population: MarketPopulation | undefined;
  private readonly log: EventLog | undefined;
  private readonly servers = new RunningServers();
  private readonly scenario: ResolvedScenario | undefined;
  /** With `store`: evicted orders and checkpoints in SQLite (store/simulator-store.ts). */
  private readonly store: SimulatorStore | undefined;
  private readonly jumps = new ClockJumps(this, () => this.time);

  constructor(given: SimulatorOptions = {}, defaults?: OptionDefaults) {
    // Each option decided once: given over the scenario's over `defaults` (options.ts).
    super();
    const { options, startMs, market, config, scenario, ...resolved } = resolveOptions(given, defaults);
    [this.scenario, this.faultState] = [scenario, new FaultState(resolved.faults, () => this.seed)];
    this.clock = options.clock;
    this.logger = options.logger ?? { info: () => {}, error: (m, e) => console.error(m, e) };
    this.time = new SimClock(this.clock, startMs);
    this.market = market;
    this.seed = options.seed ?? 1;
    this.restoreLimitBytes = resolved.restoreLimitBytes;
    this.config = config;
    this.log = newEventLog(options.eventLog);
    this.store =
      options.store === undefined ? undefined : SimulatorStore.open(options.store, this.storeSource);
    this.renew();
    this.applyFaults(this.faultState.start);
    this.tickets = lazyTicketIssuer({
      now: () => this.now(),
      ...(options.ticketTtlMs === undefined ? {} : { ttlMs: options.ticketTtlMs }),
    });
    this.platform = createPlatform({
      now: () => this.now(),
      fetch: options.fetch ?? globalThis.fetch,
      webhookTargets: () => this.servers.webhookTargets,
      ...(options.webhookLookup ? { lookup: options.webhookLookup } : {}),
      mode: options.platformMode ?? 'sandbox',
      baseUrl: () => this.baseUrl,
    });
    this.events = new EventFanout(this.platform, (event, err) =>
      this.logger.error(`event listener failed on ${event.event}`, err),
    );
    this.time.driveEngine(() => this.engine, this.logger);
    this.port = simulatorPort(this, {
      options,
      faults: this.faultState,
      control: this,
      afterRequest: () => this.time.arm(),
    });
    // A store with a checkpoint: resume there (its document's clock, config, seed and market win).
    const resume = this.store?.resumeDocument();
    if (resume !== undefined) this.restoreDocument(resume);
    this.time.arm();
  }

  /** A fresh engine and population for the current market, seed and config, installed. */
  private renew(): void {
    Object.assign(this, this.build({ market: this.market, seed: this.seed, config: this.config }));
  }

  /** An engine (and population) for `setup`, built beside the current one: nothing is installed. */
  private build({ market, seed, config }: snapshots.EngineSetup) {
    // A fresh population with a fresh generator: a reset replays the same market from the start.
    const run = this.scenario && new ScenarioRun(this.scenario, market, seed, this.scenarioHooks);
    const population = run ? run.market : market && populationFor(market, seed);
    const store = this.store;
    const engine: VenueEngine = new VenueEngine({
      archive: store?.archive,
      // Only the simulator's current engine checkpoints (not one a restore is still building).
      afterStep: store && (() => engine === this.engine && store.afterStep()),
      population: run ?? population,
      now: () => this.now(),
      config,
      seed,
      onEvent: (e) => {
        this.log?.event(e);
        this.events.emit(e);
      },
      // Built only when someone reads them (event-fanout.ts), the log included; asked per event.
      wantsEvents: (entityId) => this.log !== undefined || this.events.wants(entityId),
    });
    return { engine, population };
  }

  /** Simulated now (epoch ms): the start, plus the advances, plus ('real' only) the wall time since creation. */
  now(): number {
    return this.time.now();
  }

  /** The base URL while listening (used by the platform for SNS URLs). */
  get baseUrl(): string | undefined {
    return this.servers.baseUrl;
  }
  /** Overrides the base URL (until the server it names closes). */
  set baseUrl(url: string | undefined) {
    this.servers.baseUrl = url;
  }

  /** The fault set in force (`setFaults` replaces it). */
  get faults(): Faults {
    return this.faultState.current;
  }

  /** Answers one request in-process, as the HTTP server would (a fetch-style handler). */
  handle(req: Request): Promise<Response> {
    return handleRequest(this.port, req);
  }

  /**
   * The dispatch behind {@link handle} for node:http (no web Request): the answer, or a Promise of it.
   * @internal
   */
  dispatch(req: Inbound, requestId: string, route: ResolvedRoute): MaybeAsync<Outcome> {
    return dispatch(this.port, req, requestId, route);
  }

  /** Serves HTTP and the WebSocket on a port (loopback, any free port by default). */
  listen(options: ListenOptions = {}): Promise<RunningSimulator> {
    return listen(this, options).then((running) => this.servers.add(running));
  }

  /**
   * Calls `listener` with every market and account event; returns the unsubscribe function. With
   * `interest`, only with the events it wants (the others are not built; `interest.skip` counts them).
   */
  onEvent(listener: (event: SimulatorEvent) => void, interest?: EventInterest): () => void {
    return this.events.listen(listener, interest);
  }

  /** Calls `listener` on killSockets and reset; returns the unsubscribe function. */
  onControl(listener: (signal: ControlSignal) => void): () => void {
    this.controlListeners.add(listener);
    return () => this.controlListeners.delete(listener);
  }

  private signal(s: ControlSignal): void {
    for (const l of this.controlListeners) l(s);
  }

  /** Lock -> clear -> (settle) the current auction now; returns the cleared auction. */
  clearAuction(options: { settle?: boolean } = {}): WireAuction {
    return this.act('clearAuction', options, () => this.engine.clear(options));
  }

  /** Settles the auction that is settling now (after `clearAuction({ settle: false })`); null when none is. */
  settleAuction(): WireAuction | null {
    return this.act('settleAuction', undefined, () => this.engine.settle());
  }

  /** Moves simulated time forward, running every transition that falls due (checked first: clock-jump.ts). */
  advance(ms: number, options: Pick<AdvanceOptions, 'onProgress'> = {}): void {
    this.jumps.check(ms);
    this.act('advance', { ms }, () => this.jumps.run(ms, options.onProgress));
  }

  /** `advance(ms)` in slices (`POST /_sim/clock/advance`): requests are answered while it runs. */
  advanceAsync(ms: number, options: AdvanceOptions = {}): Promise<void> {
    return this.jumps.runAsync(ms, options, () => this.log?.control(this.now(), 'advance', { ms }));
  }

  /** Locks the current auction now, or opens it again; returns the auction. */
  setPhase(phase: 'open' | 'lock'): WireAuction {
    return this.act('setPhase', { phase }, () => this.engine.setPhase(phase));
  }

  /**
   * Lands a settled USD wire from an entity's bank on its venue-only balance (the mint side's
   * prefunding); throws the VenueError `POST /_sim/wires` answers with (400 code 2, 404 138003).
   */
  wire(input: WireInput): ReturnType<VenueEngine['wire']> {
    return this.act('wire', input, () => this.engine.wire(input));
  }

  /** What `GET /_sim/state` answers: auction, entities, ledgers; `faults` as `GET /_sim/faults` (one source). */
  getState(): SimulatorStateView {
    const [faults, market] = [{ ...this.faultState.current }, this.population?.summary() ?? null];
    return { ...this.engine.snapshot(), faults, clock: this.clock, market, jump: this.jumps.view() };
  }

  /** The whole state as one versioned JSON document (`POST /_sim/snapshot`; docs/MARKET.md). */
  snapshot(): snapshots.SnapshotDocument {
    return this.document(false);
  }
  // The store reads the running engine; a checkpoint serializes its document at once (shared: true).
  private readonly storeSource: StoreSource = {
    now: () => this.now(),
    evict: (cutoffMs) => this.engine.evict(cutoffMs),
    document: () => this.document(true),
  };
  private document(shared: boolean, advance = true): snapshots.SnapshotDocument {
    if (advance) this.engine.advanceTo();
    const { population: p, market: m, seed, faults } = this;
    const market = m && p ? { config: m, state: p.getState() } : undefined;
    const [engine, config] = [this.engine.exportSnapshot(shared), this.engine.config];
    return snapshots.snapshotDocument({ now: this.now(), seed, config, faults, engine, market }, shared);
  }

  /**
   * Puts this simulator exactly where `doc` was taken (its clock, config, seed, market; a reset then
   * goes back to their seeded state). Throws a SnapshotError (SIM_SNAPSHOT_INVALID) naming the path
   * and the rule, and changes nothing for a document it cannot use: it is checked whole first.
   */
  restore(doc: unknown): void {
    this.jumps.idle();
    this.restoreDocument(doc);
    this.store?.restart(this.document(true, false), this.engine.activityBaselines());
    this.signal({ type: 'reset' });
  }

  private restoreDocument(doc: unknown): void {
    const r = snapshots.prepareRestore(doc, (setup) => this.build(setup), this.engine.state);
    Object.assign(this, r.install);
    this.time.jumpTo(r.now);
    this.log?.clear();
    this.act('restore', { now: r.now }, () => this.applyFaults(r.faults));
  }

  /** Back to the seeded state (new auction 1, balances, no orders); listeners and servers stay. */
  reset(): void {
    this.jumps.idle();
    this.log?.control(this.now(), 'reset');
    this.renew();
    this.applyFaults(this.faultState.start);
    this.store?.restart(this.document(true, false), this.engine.activityBaselines());
    this.platform.reset().catch((err) => this.logger.error('platform reset failed', err));
    this.signal({ type: 'reset' });
    this.time.arm();
  }

  /** Replaces the fault set (`{}` clears it); `killSockets: true` drops every WebSocket now. */
  setFaults(faults: FaultSettings): void {
    this.log?.control(this.now(), 'setFaults', faults);
    if (this.applyFaults(faults)) this.killSockets();
  }

  /** A scenario's schedule, applied as auctions open: logged, then the fault set replaced. */
  private readonly scenarioHooks = {
    control: (at: number, args: object) => this.log?.control(at, 'scenario', args),
    setFaults: (faults: FaultSettings) => {
      if (this.applyFaults(faults)) this.killSockets();
      return this.engine.faults;
    },
  };

  private applyFaults(faults: FaultSettings): boolean {
    const killSockets = this.faultState.set(faults);
    this.engine.faults = this.faultState.settlement();
    return killSockets;
  }

  /** A control action (none during a clock jump): logged first (its events follow), then the clock re-armed. */
  private act<T>(action: string, args: unknown, run: () => T): T {
    this.jumps.idle();
    this.log?.control(this.now(), action, args);
    const r = run();
    this.time.arm();
    return r;
  }

  /** The event log as NDJSON (`GET /_sim/log`; docs/MARKET.md); undefined when `eventLog` is off. */
  eventLog(): EventLogView | undefined {
    return this.log && { ndjson: this.log.ndjson(), dropped: this.log.dropped };
  }

  /** Drops every WebSocket now (clients reconnect and resync). */
  killSockets(): void {
    this.signal({ type: 'killSockets' });
  }

  /** Stops timers, closes servers started by listen(), stops webhook retries, then the store. */
  async close(): Promise<void> {
    this.time.stop();
    this.jumps.close();
    const closed = await Promise.allSettled([this.servers.closeAll(), this.platform.close()]);
    this.store?.close();
    for (const c of closed) if (c.status === 'rejected') throw c.reason;
  }
}

/**
 * A new simulator: seeded entities (SEEDED), auction 1 open, a manual clock by default. It serves
 * nothing until `listen()`; `handle` answers in-process. Throws a RangeError naming an option it
 * cannot use (`startTime`, `lockMs` not shorter than `cycleMs`, ...).
 *
 * @example
 * ```ts
 * const sim = createSimulator();
 * const { url, wsUrl } = await sim.listen();
 * // ... point clients at url / wsUrl, place orders ...
 * sim.clearAuction(); // lock, clear and settle now
 * await sim.close();
 * ```
 */
export function createSimulator(options: SimulatorOptions = {}): Simulator {
  return new Simulator(options);
}
