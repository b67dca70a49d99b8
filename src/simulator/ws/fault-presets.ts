/**
 * The socket side of the fault presets (engine/fault-presets.ts; docs/MARKET.md, "Fault presets"):
 * `fill-event-lost`, `going-away`, and the write barrier `ack-after-event` holds a REST answer on.
 */
import type { PresetName } from '../engine/fault-presets.js';
import type { SimulatorEvent } from '../engine/types.js';

/** The close code of `going-away` (RFC 6455: the server is going away). */
export const GOING_AWAY = 1001;

/** What a fill's `order.updated` carries of the order (the REST Order shape). */
interface FillData {
  status?: unknown;
  fill?: { filledAmount?: { amount?: unknown } } | null;
}

/** The clear's `order.updated` of an order that filled, in whole or in part. */
export function isFillEvent(ev: SimulatorEvent): boolean {
  if (ev.channel !== 'account' || ev.event !== 'order.updated') return false;
  const data = ev.data as FillData;
  const amount = data.fill?.filledAmount?.amount;
  return data.status === 'settling' && typeof amount === 'string' && !/^0+(\.0*)?$/.test(amount);
}

/**
 * One socket endpoint's view of the presets in force. `going-away` acts once per auction: at the
 * first `order.accepted` of an auction it has not acted in (an entity's order is in the open
 * auction), every socket is closed 1001 and the next upgrade presented is refused once, 401, as an
 * expired ticket is. Only events someone has seen are built (hub.ts), so a placement by an entity
 * no client streams for does not count.
 */
export class WsPresets {
  private lastAuction = 0;
  private refuseNext = false;

  constructor(private readonly presets: () => readonly PresetName[] | undefined) {}

  private has(name: PresetName): boolean {
    return this.presets()?.includes(name) === true;
  }

  /** `fill-event-lost`: this event is not sent (its seq is consumed). */
  readonly lost = (ev: SimulatorEvent): boolean => this.has('fill-event-lost') && isFillEvent(ev);

  /** `going-away`: whether every socket is to be closed now, after `ev` was sent. */
  goingAway(ev: SimulatorEvent): boolean {
    if (ev.channel !== 'account' || ev.event !== 'order.accepted' || !this.has('going-away')) return false;
    const auctionId = (ev.data as { auctionId?: unknown }).auctionId;
    if (typeof auctionId !== 'number' || auctionId <= this.lastAuction) return false;
    this.lastAuction = auctionId;
    this.refuseNext = true;
    return true;
  }

  /** The simulator went back to auction 1 (reset, restore): every auction may go away again. */
  restart(): void {
    this.lastAuction = 0;
    this.refuseNext = false;
  }

  /** `going-away`: whether this upgrade is refused (once after each going away). */
  refuseUpgrade(): boolean {
    const refuse = this.refuseNext && this.has('going-away');
    this.refuseNext = false;
    return refuse;
  }
}

type AccountWrites = (entityId: string) => Promise<void>;

const writers = new WeakMap<object, Set<AccountWrites>>();

/**
 * A socket endpoint of `sim` tells when its account frames are written (hub.ts, accountWritten);
 * the returned function stops it. Keyed by the simulator object, as account-seq.ts is, so the
 * composition root reaches it without the HTTP layer importing the sockets.
 */
export function registerAccountWrites(sim: object, writes: AccountWrites): () => void {
  let set = writers.get(sim);
  if (!set) {
    set = new Set();
    writers.set(sim, set);
  }
  set.add(writes);
  return () => {
    set.delete(writes);
  };
}

/** Resolves once every socket endpoint of `sim` has written the entity's account frames sent so far. */
export async function accountWritten(sim: object, entityId: string): Promise<void> {
  await Promise.all([...(writers.get(sim) ?? [])].map((writes) => writes(entityId)));
}
