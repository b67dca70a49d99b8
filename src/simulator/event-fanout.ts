import type { SimulatorEvent } from './engine/types.js';
import type { Platform } from './platform/index.js';

/**
 * Who reads the simulator's events: every `onEvent` listener (the WebSocket hub is one) reads all
 * of them; the platform reads the account events of entities holding a webhook subscription. The
 * engine asks `wants` before building an event, so with nobody reading, a 1,000,000-order clear
 * builds none of its 2,000,000 order events.
 */
export class EventFanout {
  private readonly listeners = new Set<(event: SimulatorEvent) => void>();
  private subscribedNow: ReadonlySet<string> | undefined;

  constructor(
    private readonly platform: Pick<Platform, 'state' | 'onSimulatorEvent'>,
    private readonly onListenerError: (event: SimulatorEvent, err: unknown) => void,
  ) {}

  listen(listener: (event: SimulatorEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Market events: `entityId` undefined. */
  wants(entityId: string | undefined): boolean {
    if (this.listeners.size > 0) return true;
    return entityId !== undefined && this.webhookEntities().has(entityId);
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
