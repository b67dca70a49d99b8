import type { SimulatorEvent } from '../engine/types.js';

/**
 * What a listener that numbers events (the WebSocket hub) reads: `wants` says whether it needs the
 * event itself (entityId undefined: a market event); an event nobody wants is never built, and
 * `skip` tells the listener one happened, so that its numbering still counts it.
 */
export interface EventInterest {
  /** Whether the listener reads this event (`entityId` undefined: a market event). */
  wants(entityId: string | undefined): boolean;
  /** An event the listener did not want, and nobody else did, happened and was not built. */
  skip(entityId: string | undefined): void;
}

/**
 * What the fan-out needs of the platform (platform/index.ts's Platform has it): the webhook
 * subscriptions, and every event. A port, so that the events sit under the bindings they feed.
 */
export interface EventPlatform {
  state(): {
    v1Subscriptions: readonly { entityId: string }[];
    v2Subscriptions: readonly { entityId: string }[];
  };
  onSimulatorEvent(event: SimulatorEvent): void;
}

/**
 * Who reads the simulator's events: every `onEvent` listener reads all of them, unless it states an
 * interest (the WebSocket hub reads only the sequences a socket subscribed to); the platform reads
 * the account events of entities holding a webhook subscription. The engine asks `wants` once
 * before building each event, so with nobody reading, a 1,000,000-order clear builds none of its
 * 2,000,000 order events.
 */
export class EventFanout {
  private readonly listeners = new Set<(event: SimulatorEvent) => void>();
  // Listeners without an interest: they read every event.
  private readAll = 0;
  // An array, not a Set: `wants` walks it once per event the engine could build.
  private interests: readonly EventInterest[] = [];
  private subscribedNow: ReadonlySet<string> | undefined;

  constructor(
    private readonly platform: EventPlatform,
    private readonly onListenerError: (event: SimulatorEvent, err: unknown) => void,
  ) {}

  listen(listener: (event: SimulatorEvent) => void, interest?: EventInterest): () => void {
    // A function given twice is one listener (a Set), so it is counted once.
    if (this.listeners.has(listener)) return () => this.unlisten(listener, interest);
    this.listeners.add(listener);
    if (interest) this.interests = [...this.interests, interest];
    else this.readAll += 1;
    return () => this.unlisten(listener, interest);
  }

  /**
   * Market events: `entityId` undefined. Asked once per event about to be built: when the answer
   * is no, every interest is told the event happened (`skip`); when yes, it is built and emitted.
   */
  wants(entityId: string | undefined): boolean {
    if (this.readAll > 0) return true;
    if (entityId !== undefined && this.webhookEntities().has(entityId)) return true;
    const interests = this.interests;
    for (let i = 0; i < interests.length; i++) if (interests[i]?.wants(entityId)) return true;
    for (let i = 0; i < interests.length; i++) interests[i]?.skip(entityId);
    return false;
  }

  private unlisten(listener: (event: SimulatorEvent) => void, interest: EventInterest | undefined): void {
    if (!this.listeners.delete(listener)) return;
    if (interest) this.interests = this.interests.filter((i) => i !== interest);
    else this.readAll -= 1;
  }

  emit(event: SimulatorEvent): void {
    if (event.channel === 'account' && this.webhookEntities().has(event.entityId))
      this.platform.onSimulatorEvent(event);
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (err) {
        this.onListenerError(event, err);
      }
    }
  }

  /**
   * Entities with a v1 or v2 subscription (delivery still decides by type and confirmation). Read
   * once per synchronous run and forgotten at the next microtask: subscriptions change only in the
   * platform's asynchronous request handling, never in the middle of an engine step.
   */
  private webhookEntities(): ReadonlySet<string> {
    if (this.subscribedNow === undefined) {
      const { v1Subscriptions, v2Subscriptions } = this.platform.state();
      const ids = new Set<string>();
      for (const s of v1Subscriptions) ids.add(s.entityId);
      for (const s of v2Subscriptions) ids.add(s.entityId);
      this.subscribedNow = ids;
      queueMicrotask(() => {
        this.subscribedNow = undefined;
      });
    }
    return this.subscribedNow;
  }
}
