import { afterEach, describe, expect, it } from 'vitest';
import { BadRequestError, NotFoundError } from '../../src/core/error.js';
import { SubscriptionPendingError } from '../../src/resources/subscriptions.js';
import {
  type PlatformServer,
  platformClient,
  type Receiver,
  startPlatformServer,
  startReceiver,
} from './harness.js';

const KEY = 'TEST_API_KEY:burner:sim';
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

let sim: PlatformServer | undefined;
let receiver: Receiver | undefined;
afterEach(async () => {
  await receiver?.close();
  await sim?.close();
  receiver = undefined;
  sim = undefined;
});

async function rawDelete(id: string): Promise<Response> {
  return fetch(`${sim!.url}/v1/notifications/subscriptions/${id}`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${KEY}` },
  });
}

describe('v1 subscriptions against the simulator', () => {
  it('create -> signed confirmation per region verified and auto-confirmed -> confirmed -> delete', async () => {
    sim = await startPlatformServer();
    receiver = await startReceiver(sim.url, KEY);
    const { subscriptions } = platformClient(sim.url, KEY);

    const created = await subscriptions.create({ endpoint: receiver.url });
    expect(created.endpoint).toBe(receiver.url);
    expect(created.subscriptionDetails.map((d) => d.status)).toEqual(['pending', 'pending']);

    await sim.platform.idle();
    expect(receiver.errors).toEqual([]);
    expect(receiver.confirmations.sort()).toEqual(created.subscriptionDetails.map((d) => d.url).sort());
    const confirmations = sim.platform.deliveries().filter((d) => d.kind === 'v1-confirmation');
    expect(confirmations.map((d) => [d.state, d.attempts.length])).toEqual([
      ['delivered', 1],
      ['delivered', 1],
    ]);
    // Each confirmation was verified against the simulator's certificate and confirmed by fetching its SubscribeURL.
    expect(sim.requests.filter((r) => r === 'GET /_sim/sns/cert.pem').length).toBeGreaterThanOrEqual(1);
    expect(sim.requests.filter((r) => r === 'GET /_sim/sns/confirm')).toHaveLength(2);

    const [listed] = await subscriptions.list();
    expect(listed?.id).toBe(created.id);
    expect(listed?.subscriptionDetails.map((d) => d.status)).toEqual(['confirmed', 'confirmed']);

    await subscriptions.delete(created.id);
    expect(await subscriptions.list()).toEqual([]);
    expect(sim.requests.filter((r) => r.startsWith('DELETE '))).toHaveLength(1);
  });

  it('delivers account events as signed SNS notifications once a detail is confirmed', async () => {
    sim = await startPlatformServer();
    receiver = await startReceiver(sim.url, KEY);
    const { subscriptions } = platformClient(sim.url, KEY);
    await subscriptions.create({ endpoint: receiver.url });
    await sim.platform.idle();

    const order = { orderId: 'o-1', status: 'pending' };
    sim.platform.onSimulatorEvent({
      channel: 'account',
      entityId: 'burner',
      event: 'order.accepted',
      data: order,
    });
    sim.platform.onSimulatorEvent({ channel: 'market', event: 'auction.opened', data: {} });
    sim.platform.onSimulatorEvent({
      channel: 'account',
      entityId: 'minter',
      event: 'order.accepted',
      data: {},
    });
    await sim.platform.idle();

    expect(receiver.events).toHaveLength(1);
    const [event] = receiver.events;
    if (event?.version !== 1) throw new Error('expected a v1 event');
    expect(event.notification.Type).toBe('Notification');
    expect(JSON.parse(event.notification.Message)).toEqual({
      clientId: 'burner',
      notificationType: 'order.accepted',
      version: 1,
      notification: order,
    });
  });

  it('blocks deletion while a detail is pending: client-side (no DELETE sent) and server-side', async () => {
    sim = await startPlatformServer();
    // An endpoint that answers every POST with 200 without confirming leaves the details pending.
    receiver = await startReceiver(sim.url, KEY);
    receiver.failNext.push(200, 200);
    const { subscriptions } = platformClient(sim.url, KEY);
    const created = await subscriptions.create({ endpoint: receiver.url });
    await sim.platform.idle();

    const error = await subscriptions.delete(created.id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SubscriptionPendingError);
    expect((error as SubscriptionPendingError).subscriptionId).toBe(created.id);
    expect((error as SubscriptionPendingError).pendingDetails).toHaveLength(2);
    expect((error as Error).message).toMatch(/pending.*No DELETE request was sent/s);
    expect(sim.requests.filter((r) => r.startsWith('DELETE '))).toEqual([]);

    const raw = await rawDelete(created.id);
    expect(raw.status).toBe(400);
    const body = (await raw.json()) as { code: number; message: string; errors: { location: string }[] };
    expect(body.code).toBe(2);
    expect(body.message).toMatch(/pending/);
    expect(body.errors[0]?.location).toBe('id');
    expect((await subscriptions.list()).map((s) => s.id)).toEqual([created.id]);
  });

  it('answers 404 for an unknown subscription and 400 for a malformed id', async () => {
    sim = await startPlatformServer();
    const { subscriptions } = platformClient(sim.url, KEY);
    const missing = await subscriptions
      .delete('6f1c1d2e-3b4a-4c5d-8e6f-7a8b9c0d1e2f')
      .catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect((await rawDelete('not-a-uuid')).status).toBe(400);
  });

  it.each([
    ['sandbox', 3],
    ['production', 1],
  ] as const)('limits active subscriptions in %s to %i (400, code 2)', async (mode, limit) => {
    sim = await startPlatformServer({ mode });
    const { subscriptions } = platformClient(sim.url, KEY);
    for (let i = 0; i < limit; i++) await subscriptions.create({ endpoint: `http://127.0.0.1:9/hook-${i}` });
    const error = await subscriptions
      .create({ endpoint: 'http://127.0.0.1:9/one-more' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).code).toBe(2);
    expect((error as BadRequestError).serverMessage).toMatch(new RegExp(`${mode} allows ${limit} active`));
    // Another entity has its own allowance.
    await expect(
      platformClient(sim.url, 'TEST_API_KEY:minter:sim').subscriptions.create({
        endpoint: 'http://127.0.0.1:9/m',
      }),
    ).resolves.toMatchObject({ endpoint: 'http://127.0.0.1:9/m' });
  });

  it.each([
    ['sandbox', 30 * DAY],
    ['production', 72 * HOUR],
  ] as const)('removes pending details in %s after %i ms on the simulator clock', async (mode, age) => {
    sim = await startPlatformServer({ mode });
    const { subscriptions } = platformClient(sim.url, KEY);
    const created = await subscriptions.create({ endpoint: 'http://127.0.0.1:9/unreachable' });
    sim.advance(age - 1);
    expect((await subscriptions.list()).map((s) => s.id)).toEqual([created.id]);
    sim.advance(1);
    expect(await subscriptions.list()).toEqual([]);
    // The freed slot can be used again (production allows only one).
    await expect(subscriptions.create({ endpoint: 'http://127.0.0.1:9/again' })).resolves.toMatchObject({
      endpoint: 'http://127.0.0.1:9/again',
    });
  });

  it('a confirmation fetched after the pending age no longer confirms', async () => {
    sim = await startPlatformServer({ mode: 'production' });
    receiver = await startReceiver(sim.url, KEY);
    receiver.failNext.push(200, 200);
    const { subscriptions } = platformClient(sim.url, KEY);
    await subscriptions.create({ endpoint: receiver.url });
    await sim.platform.idle();
    sim.advance(72 * HOUR);
    const state = await (await fetch(`${sim.url}/_sim/platform/state`)).json();
    expect(state.data.v1Subscriptions).toEqual([]);
    const bogus = await fetch(`${sim.url}/_sim/sns/confirm?Token=${'ab'.repeat(64)}`);
    expect(bogus.status).toBe(404);
  });

  it('refuses a non-https endpoint off loopback before sending anything', async () => {
    sim = await startPlatformServer();
    const { subscriptions } = platformClient(sim.url, KEY);
    await expect(subscriptions.create({ endpoint: 'http://example.com/hook' })).rejects.toThrow(
      /endpoint: must be an HTTPS URL/,
    );
    expect(sim.requests).toEqual([]);
  });
});
