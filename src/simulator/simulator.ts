import { VenueEngine } from './engine/engine.js';
import { seededRandom } from './engine/ids.js';
import type { EngineState } from './engine/state.js';
import type { SimulatorEvent } from './engine/types.js';
import { EventFanout } from './event-fanout.js';
import { handleRequest } from './http/handler.js';
import { RateLimiter } from './http/rate-limit.js';
import { type ListenOptions, listen, type RunningSimulator } from './listen.js';
import { engineConfig, type Logger, type SimulatorOptions } from './options.js';
import { createPlatform, type Platform } from './platform/index.js';
import { TicketAuthority } from './ws/tickets.js';

export type ControlSignal = { type: 'killSockets' } | { type: 'reset' };

export type { Logger, SimulatorOptions } from './options.js';

export interface Faults {
  /** Added before every authenticated request is handled (real milliseconds). */
  latencyMs?: number;
  /** Fraction of authenticated requests answered 503 `{code: -1}` without being applied. */
  errorRate?: number;
  /** The next N authenticated requests (true = 1) are applied but their responses are dropped. */
  dropResponse?: boolean | number;
  /** Order ids whose settlement fails, or a rate in [0, 1]. */
  failSettlement?: readonly string[] | number;
  /** GET /v1/match/account answers 400 139001 (venue wallet invalid) for entities with an account. */
  venueWalletInvalid?: boolean;
}

export interface TicketIssuer {
  issue(entityId: string): Promise<{ ticket: string; expiresAt: string }>;
  verify(ticket: string | undefined): Promise<{ entityId: string }>;
}

/** What the HTTP layer sees of the simulator. */
export interface SimulatorCore {
  readonly engine: VenueEngine;
  readonly tickets: TicketIssuer;
  readonly faults: Faults;
  readonly logger: Logger;
  readonly rateLimiter: RateLimiter | undefined;
  random(): number;
  now(): number;
  takeDrop(): boolean;
  afterRequest(): void;
  platformHandle(req: Request, entityId: string): Promise<Response | undefined>;
  platformControl(req: Request): Promise<Response | undefined>;
  clearAuction(options?: { settle?: boolean }): unknown;
  settleAuction(): unknown;
  advance(ms: number): void;
  setPhase(phase: 'open' | 'lock'): unknown;
  getState(): unknown;
  reset(): void;
  setFaults(faults: Faults & { killSockets?: boolean }): void;
}

const DEFAULT_START = Date.parse('2026-01-01T00:00:00.000Z');

/** A simulated venue: engine + clock + HTTP handler + tickets + platform + fault injection. */
export class Simulator implements SimulatorCore {
  readonly clock: 'real' | 'manual';
  readonly logger: Logger;
  readonly rateLimiter: RateLimiter | undefined;
  readonly tickets: TicketIssuer;
  readonly platform: Platform;
  engine: VenueEngine;
  faults: Faults = {};
  /** The base URL while listening (used by the platform for SNS URLs). */
  baseUrl: string | undefined;
  private readonly options: SimulatorOptions;
  private readonly events: EventFanout;
  private readonly controlListeners = new Set<(signal: ControlSignal) => void>();
  private readonly rng: () => number;
  private offset = 0;
  private readonly start: number;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private timerAt: number | undefined;
  private dropsLeft = 0;
  private closed = false;
  private readonly servers = new Set<RunningSimulator>();

  constructor(options: SimulatorOptions = {}) {
    this.options = options;
    this.clock = options.clock ?? 'manual';
    this.logger = options.logger ?? { info: () => {}, error: (m, e) => console.error(m, e) };
    this.rateLimiter = options.rateLimit ? new RateLimiter(options.rateLimit) : undefined;
    this.rng = seededRandom((options.seed ?? 1) ^ 0x5bd1e995);
    const start = options.startTime;
    this.start = typeof start === 'string' ? Date.parse(start) : (start ?? DEFAULT_START);
    if (!Number.isFinite(this.start)) throw new RangeError('startTime is not a valid date');
    this.engine = this.newEngine();
    const authority = TicketAuthority.create({
      now: () => this.now(),
      ...(options.ticketTtlMs === undefined ? {} : { ttlMs: options.ticketTtlMs }),
    });
    // Key generation is async; the first issue/verify waits for it, so construction stays synchronous.
    authority.catch(() => {});
    this.tickets = {
      issue: async (entityId) => (await authority).issue(entityId),
      verify: async (ticket) => (await authority).verify(ticket),
    };
    this.platform = createPlatform({
      now: () => this.now(),
      fetch: options.fetch ?? globalThis.fetch,
      mode: options.platformMode ?? 'sandbox',
      baseUrl: () => this.baseUrl,
    });
    this.events = new EventFanout(this.platform, (event, err) =>
      this.logger.error(`event listener failed on ${event.event}`, err),
    );
    this.arm();
  }

  private newEngine(): VenueEngine {
    return new VenueEngine({
      now: () => this.now(),
      config: engineConfig(this.options),
      seed: this.options.seed ?? 1,
      // Built only when someone reads them (event-fanout.ts); an engine step asks per event.
      onEvent: (e) => this.events.emit(e),
      wantsEvents: (entityId) => this.events.wants(entityId),
    });
  }

  /** Simulated now (epoch ms): wall clock plus advances ('real'), or start plus advances ('manual'). */
  now(): number {
    return (this.clock === 'real' ? Date.now() : this.start) + this.offset;
  }

  get state(): EngineState {
    return this.engine.state;
  }

  random(): number {
    return this.rng();
  }

  handle(req: Request): Promise<Response> {
    return handleRequest(this, req);
  }

  listen(options: ListenOptions = {}): Promise<RunningSimulator> {
    return listen(this, options).then((running) => {
      this.servers.add(running);
      this.baseUrl ??= running.url;
      const close = running.close;
      running.close = async () => {
        this.servers.delete(running);
        if (this.baseUrl === running.url) this.baseUrl = undefined;
        await close();
      };
      return running;
    });
  }

  onEvent(listener: (event: SimulatorEvent) => void): () => void {
    return this.events.listen(listener);
  }

  onControl(listener: (signal: ControlSignal) => void): () => void {
    this.controlListeners.add(listener);
    return () => this.controlListeners.delete(listener);
  }

  private signal(s: ControlSignal): void {
    for (const l of this.controlListeners) l(s);
  }

  marketSnapshot() {
    return this.engine.marketSnapshot();
  }

  entityForApiKey(apiKey: string): { entityId: string; name: string } | undefined {
    const e = this.engine.entityForApiKey(apiKey);
    return e ? { entityId: e.id, name: e.name } : undefined;
  }

  /** Lock -> clear -> (settle) the current auction now; returns the cleared auction. */
  clearAuction(options: { settle?: boolean } = {}) {
    const r = this.engine.clear(options);
    this.arm();
    return r;
  }

  settleAuction() {
    const r = this.engine.settle();
    this.arm();
    return r;
  }

  /** Moves simulated time forward, running every transition that falls due. */
  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('ms must be a non-negative number');
    this.offset += ms;
    this.engine.advanceTo();
    this.arm();
  }

  setPhase(phase: 'open' | 'lock') {
    const r = this.engine.setPhase(phase);
    this.arm();
    return r;
  }

  getState() {
    return { ...this.engine.snapshot(), clock: this.clock };
  }

  /** Back to the seeded state (new auction 1, balances, no orders); listeners and servers stay. */
  reset(): void {
    this.engine = this.newEngine();
    this.faults = {};
    this.dropsLeft = 0;
    this.applySettlementFaults();
    this.platform.reset().catch((err) => this.logger.error('platform reset failed', err));
    this.signal({ type: 'reset' });
    this.arm();
  }

  /** Replaces the fault set (`{}` clears it); `killSockets: true` drops every WebSocket now. */
  setFaults(faults: Faults & { killSockets?: boolean }): void {
    const { killSockets, ...rest } = faults;
    this.faults = rest;
    const drop = rest.dropResponse;
    this.dropsLeft = drop === true ? 1 : typeof drop === 'number' ? drop : 0;
    this.applySettlementFaults();
    if (killSockets) this.killSockets();
  }

  killSockets(): void {
    this.signal({ type: 'killSockets' });
  }

  private applySettlementFaults(): void {
    const f = this.faults.failSettlement;
    this.engine.faults = typeof f === 'number' ? { failRate: f } : f ? { failOrderIds: [...f] } : {};
  }

  takeDrop(): boolean {
    if (this.dropsLeft <= 0) return false;
    this.dropsLeft--;
    this.faults = { ...this.faults, dropResponse: this.dropsLeft };
    return true;
  }

  afterRequest(): void {
    this.arm();
  }

  platformHandle(req: Request, entityId: string): Promise<Response | undefined> {
    return this.platform.handle(req, { entityId });
  }

  platformControl(req: Request): Promise<Response | undefined> {
    return this.platform.handleControl(req);
  }

  /** Real clock: one unref'd timer at the next scheduled transition. */
  private arm(): void {
    if (this.clock !== 'real' || this.closed) return;
    const at = this.engine.nextDeadline();
    if (at === null) {
      this.disarm();
      return;
    }
    if (this.timer && this.timerAt === at) return;
    this.disarm();
    this.timerAt = at;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.timerAt = undefined;
        try {
          this.engine.advanceTo();
        } catch (err) {
          this.logger.error('auction cycle step failed', err);
        }
        this.arm();
      },
      Math.max(0, at - this.now()),
    );
    this.timer.unref?.();
  }

  private disarm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = undefined;
  }

  /** Stops timers, closes servers started by listen(), stops webhook retries. */
  async close(): Promise<void> {
    this.closed = true;
    this.disarm();
    await Promise.all([...this.servers].map((s) => s.close()));
    await this.platform.close();
  }
}

export function createSimulator(options: SimulatorOptions = {}): Simulator {
  return new Simulator(options);
}
