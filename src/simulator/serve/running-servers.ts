import type { WebhookTargets } from '../platform/endpoint-guard.js';
import type { RunningSimulator } from './listen.js';

/**
 * The servers `listen()` started: the simulator closes them with itself, and the first one still
 * open gives the base URL the platform builds SNS URLs on.
 */
export class RunningServers {
  private readonly servers = new Set<RunningSimulator>();
  /** The first open server's URL; undefined while none listens. */
  baseUrl: string | undefined;

  /** Tracks `running` until it closes (its `close` is wrapped to untrack it). */
  add(running: RunningSimulator): RunningSimulator {
    this.servers.add(running);
    this.baseUrl ??= running.url;
    const close = running.close;
    running.close = async () => {
      this.servers.delete(running);
      if (this.baseUrl === running.url) this.baseUrl = undefined;
      await close();
    };
    return running;
  }

  /** `public` while any open server is bound off loopback without allowPrivateWebhooks. */
  get webhookTargets(): WebhookTargets {
    for (const server of this.servers) if (server.webhookTargets === 'public') return 'public';
    return 'any';
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.servers].map((s) => s.close()));
  }
}
