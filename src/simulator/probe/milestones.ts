/**
 * The recorded venue's auction milestones, which the probe follows beside its clock. The clock
 * alone clears the probe's auctions where the recorded venue's did only when that venue's clock ran
 * as the wall clock does (a sandbox, `match-venue-sim` on its real clock). A cassette recorded on a
 * simulator whose auctions were moved by its controls (mock mode's manual clock: `clearAuction`,
 * `advance`) holds no line for those controls, only the market events they caused: the k-th
 * `auction.cleared` the recording saw means the venue had cleared k auctions by then, so when the
 * probe's simulator has cleared fewer, it clears one now (and settles on `auction.settled` alike).
 */
import type { CassetteEntry } from '../../contract/cassette.js';
import type { Simulator } from '../simulator.js';
import type { IdMap } from './ids.js';

/** A market event of the recording that moved the venue's auctions. */
export interface Milestone {
  kind: 'milestone';
  /** The cassette line that first showed it. */
  line: number;
  /** When it was received (epoch ms): the probe follows it before any step recorded later. */
  at: number;
  event: 'auction.cleared' | 'auction.settled';
  /** The recorded venue's auction id. */
  auctionId: number;
}

type Frame = { type?: unknown; channel?: unknown; event?: unknown; data?: { auctionId?: unknown } | null };

/** Each auction's first `auction.cleared` and `auction.settled` on any recorded connection, by time. */
export function recordedMilestones(entries: readonly CassetteEntry[]): Milestone[] {
  const first = new Map<string, Milestone>();
  entries.forEach((entry, i) => {
    if (entry.kind !== 'ws' || entry.event !== 'receive') return;
    const frame = entry.frame as Frame | null | undefined;
    if (frame === null || typeof frame !== 'object' || Array.isArray(frame)) return;
    const { type, channel, event, data } = frame;
    if (type !== 'event' || channel !== 'market') return;
    if (event !== 'auction.cleared' && event !== 'auction.settled') return;
    const auctionId = data !== null && typeof data === 'object' ? data.auctionId : undefined;
    if (typeof auctionId !== 'number') return;
    const at = Date.parse(entry.at);
    const key = `${event} ${auctionId}`;
    const held = first.get(key);
    if (held === undefined || at < held.at)
      first.set(key, { kind: 'milestone', line: i + 2, at, event, auctionId });
  });
  return [...first.values()].sort((a, b) => a.at - b.at || a.line - b.line);
}

/** Counts the probe's own clears and settlements, and catches them up to the recorded ones. */
export class MilestoneFollower {
  private cleared = 0;
  private settled = 0;
  private recordedClears = 0;
  private recordedSettlements = 0;
  private readonly stop: () => void;

  constructor(
    private readonly sim: Simulator,
    private readonly ids: IdMap,
  ) {
    this.stop = sim.onEvent((ev) => {
      if (ev.channel !== 'market') return;
      if (ev.event === 'auction.cleared') this.cleared++;
      else if (ev.event === 'auction.settled') this.settled++;
    });
  }

  /** Clears and settlements made to follow the recording, for the report's notes. */
  readonly followed = { clears: 0, settlements: 0 };

  /** Brings the simulator to `m` when its clock has not. */
  follow(m: Milestone): void {
    if (m.event === 'auction.cleared') {
      this.recordedClears++;
      if (this.cleared >= this.recordedClears) return;
      const auction = this.sim.clearAuction({ settle: false });
      this.followed.clears++;
      // The recorded auction is the one cleared here, unless an answer paired them already.
      if (this.ids.get(m.auctionId) === undefined && auction.auctionId !== m.auctionId)
        this.ids.set(String(m.auctionId), auction.auctionId);
      return;
    }
    this.recordedSettlements++;
    if (this.settled < this.recordedSettlements && this.sim.settleAuction() !== null)
      this.followed.settlements++;
  }

  close(): void {
    this.stop();
  }
}
