/** The fault set of `setFaults` / `POST /_sim/faults`, and the state the faults keep. */
import { z } from 'zod';
import { type PresetName, PresetsBody, TicketReuse } from './fault-presets.js';
import type { SettlementFaults } from './types.js';

/** The faults in force; each is off when absent. */
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
  /** Named trading failures (fault-presets.ts; docs/MARKET.md, "Fault presets"), seeded by the seed. */
  presets?: readonly PresetName[];
}

/** What `setFaults` takes: the fault set, and `killSockets` (a one-off action, not kept). */
export type FaultSettings = Faults & {
  /** Drop every WebSocket now (not kept as part of the fault set). */
  killSockets?: boolean;
};

/** The current fault set and the responses still to drop. */
export class FaultState {
  current: Faults = {};
  private dropsLeft = 0;
  /** `ticket-reused` while the fault set names it: counts from the set that named it. */
  private reuse: TicketReuse | undefined;

  /**
   * `start`: the fault set at creation and after a reset (the `faults` option over a scenario's
   * auction 1); `seed`: the simulator's seed of the moment (a restore may bring another).
   */
  constructor(
    readonly start: FaultSettings = {},
    private readonly seed: () => number = () => 1,
  ) {}

  /** Whether the fault set names `preset`. */
  has(preset: PresetName): boolean {
    return this.current.presets?.includes(preset) === true;
  }

  /** The answer to a ticket request: `issue()`'s, but under `ticket-reused` once the previous ticket. */
  ticket(issue: () => Promise<{ ticket: string; expiresAt: string }>) {
    return this.reuse ? this.reuse.answer(issue) : issue();
  }

  /** Replaces the fault set; returns whether sockets are to be killed now. */
  set(settings: FaultSettings): boolean {
    const { killSockets, ...rest } = settings;
    this.current = rest;
    const drop = rest.dropResponse;
    this.dropsLeft = drop === true ? 1 : typeof drop === 'number' ? drop : 0;
    this.reuse = this.has('ticket-reused') ? new TicketReuse(this.seed()) : undefined;
    return killSockets === true;
  }

  /** True when this request's response is to be dropped (counts it down). */
  takeDrop(): boolean {
    if (this.dropsLeft <= 0) return false;
    this.dropsLeft--;
    this.current = { ...this.current, dropResponse: this.dropsLeft };
    return true;
  }

  /** The engine's part: settlement failures by order id or by rate. */
  settlement(): SettlementFaults {
    const f = this.current.failSettlement;
    const failures = typeof f === 'number' ? { failRate: f } : f ? { failOrderIds: [...f] } : {};
    return this.has('settlement-slow') ? { ...failures, slow: true } : failures;
  }
}

/** The fault set's shape (`POST /_sim/faults` bodies, and the faults a snapshot carries). */
export const FaultsBody = z
  .object({
    latencyMs: z.number().int().min(0).max(60_000).optional(),
    errorRate: z.number().min(0).max(1).optional(),
    dropResponse: z.union([z.boolean(), z.number().int().min(0)]).optional(),
    killSockets: z.boolean().optional(),
    failSettlement: z.union([z.array(z.string()), z.number().min(0).max(1)]).optional(),
    venueWalletInvalid: z.boolean().optional(),
    presets: PresetsBody.optional(),
  })
  .strict();
