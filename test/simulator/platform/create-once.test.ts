// A create the endpoint table marks not idempotent (no key: a second request makes a second
// subscription) is never sent again after an attempt that may have reached the platform. The
// fault is real: a loopback proxy forwards the first request and, once the simulator answered,
// resets the client's connection.
import { MatchVenue, OutcomeUnknownError } from 'match-venue';
import { afterEach, describe, expect, it } from 'vitest';
import { type HoldingProxy, startHoldingProxy } from '../../helpers/holding-proxy.js';
import { BURNER, type Receiver, type SimServer, startReceiver, startSimulator } from './harness.js';

let sim: SimServer | undefined;
let receiver: Receiver | undefined;
let proxy: HoldingProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  await receiver?.close();
  await sim?.close();
  proxy = receiver = sim = undefined;
});

/** A client behind a proxy that resets the connection after the first POST to `path` was answered. */
async function resettingClient(server: SimServer, path: string) {
  let first = true;
  proxy = await startHoldingProxy(server.url, (req) => {
    if (req.method !== 'POST' || req.path !== path || !first) return false;
    first = false;
    return 'reset-after';
  });
  return new MatchVenue({ apiKey: BURNER, baseUrl: proxy.url, retry: { sleep: async () => {} } });
}

const creates = (path: string) =>
  (proxy?.forwarded ?? []).filter((f) => f.method === 'POST' && f.path === path);

describe('a create that is not idempotent, its connection reset after the platform answered', () => {
  it('v2 notifications.create: sent once, OutcomeUnknownError, one subscription on the platform', async () => {
    sim = await startSimulator();
    receiver = await startReceiver(sim.url, BURNER);
    const path = '/v2/notifications/subscriptions';
    const venue = await resettingClient(sim, path);

    const err = await venue.webhookSubscriptions
      .create({ endpoint: receiver.url, notificationTypes: ['*'] })
      .catch((e: unknown) => e);

    expect(err).toBeInstanceOf(OutcomeUnknownError);
    const unknown = err as OutcomeUnknownError;
    expect(unknown.operation).toBe('createWalletSubscription');
    expect(unknown.idempotencyKey).toBeUndefined();
    expect(unknown.attempts).toBe(1);
    expect((unknown.cause as Error).name).toBe('APIConnectionError');
    expect(creates(path).map((f) => [f.status, f.lost])).toEqual([[201, true]]);
    const entityId = sim.entityId(BURNER);
    expect(sim.platform.state().v2Subscriptions.filter((s) => s.entityId === entityId)).toHaveLength(1);
  });

  it('v1 subscriptions.create: sent once, and resolveUnknown finds the subscription by its endpoint', async () => {
    sim = await startSimulator();
    receiver = await startReceiver(sim.url, BURNER);
    const path = '/v1/notifications/subscriptions';
    const venue = await resettingClient(sim, path);

    const err = (await venue.snsSubscriptions
      .create({ endpoint: receiver.url })
      .catch((e: unknown) => e)) as OutcomeUnknownError;
    expect(err).toBeInstanceOf(OutcomeUnknownError);
    expect(err.operation).toBe('createV1Subscription');
    expect(creates(path)).toHaveLength(1);

    const resolved = await venue.snsSubscriptions.resolveUnknown(err);
    expect(resolved).toMatchObject({ status: 'found', subscription: { endpoint: receiver.url } });
    const listed = await venue.snsSubscriptions.list();
    expect(listed.filter((s) => s.endpoint === receiver?.url)).toHaveLength(1);
  });

  it('v1 subscriptions.resolveUnknown answers an absence when the create never arrived', async () => {
    sim = await startSimulator();
    receiver = await startReceiver(sim.url, BURNER);
    const path = '/v1/notifications/subscriptions';
    // The proxy holds the create; the client times out: nothing is made (until the proxy releases it).
    let first = true;
    proxy = await startHoldingProxy(sim.url, (req) => {
      if (req.method !== 'POST' || req.path !== path || !first) return false;
      first = false;
      return true;
    });
    const venue = new MatchVenue({
      apiKey: BURNER,
      baseUrl: proxy.url,
      timeout: 200,
      settleWindowMs: 10_000,
    });
    const err = (await venue.snsSubscriptions
      .create({ endpoint: receiver.url })
      .catch((e: unknown) => e)) as OutcomeUnknownError;
    expect(err).toBeInstanceOf(OutcomeUnknownError);
    expect(proxy.held).toBe(1);
    const resolved = await venue.snsSubscriptions.resolveUnknown(err);
    expect(resolved).toEqual({ status: 'absent', final: false, settlesAt: err.settlesAt });
  });

  it('a DELETE whose first attempt deleted it and lost the answer resolves, not 404', async () => {
    sim = await startSimulator();
    receiver = await startReceiver(sim.url, BURNER);
    const direct = new MatchVenue({ apiKey: BURNER, baseUrl: sim.url });
    const created = await direct.snsSubscriptions.create({ endpoint: receiver.url });
    await sim.platform.idle(); // both regions confirmed by the receiver, so the delete is allowed
    let first = true;
    proxy = await startHoldingProxy(sim.url, (req) => {
      if (req.method !== 'DELETE' || !first) return false;
      first = false;
      return 'reset-after';
    });
    const venue = new MatchVenue({ apiKey: BURNER, baseUrl: proxy.url, retry: { sleep: async () => {} } });
    await expect(venue.snsSubscriptions.delete(created.id)).resolves.toBeUndefined();
    expect(proxy.forwarded.filter((f) => f.method === 'DELETE').map((f) => f.status)).toEqual([204, 404]);
  });
});
