import { BadRequestError, NotFoundError, SubscriptionPendingError } from 'match-venue';
import { afterEach, describe, expect, it } from 'vitest';
import { BURNER, MINTER, type Receiver, type SimServer, startReceiver, startSimulator } from './harness.js';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

let server: SimServer | undefined;
let receiver: Receiver | undefined;
afterEach(async () => {
  await receiver?.close();
  await server?.close();
  receiver = undefined;
  server = undefined;
});

async function rawDelete(id: string): Promise<Response> {
  return fetch(`${server!.url}/v1/notifications/subscriptions/${id}`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${BURNER}` },
  });
}

describe('v1 subscriptions against the simulator', () => {
  it('create -> signed confirmation per region, verified and auto-confirmed -> confirmed -> delete', async () => {
    server = await startSimulator();
    receiver = await startReceiver(server.url, BURNER);
    const { snsSubscriptions: subscriptions, requests } = server.client();

    const created = await subscriptions.create({ endpoint: receiver.url });
    expect(created.endpoint).toBe(receiver.url);
    expect(created.subscriptionDetails.map((d) => d.status)).toEqual(['pending', 'pending']);
    expect(created.subscriptionDetails.map((d) => d.url.split(':')[3])).toEqual(['us-east-1', 'us-west-2']);

    await server.platform.idle();
    expect(receiver.errors).toEqual([]);
    expect(receiver.confirmations.sort()).toEqual(created.subscriptionDetails.map((d) => d.url).sort());
    const confirmations = server.platform.deliveries().filter((d) => d.kind === 'v1-confirmation');
    expect(confirmations.map((d) => [d.state, d.attempts.length])).toEqual([
      ['delivered', 1],
      ['delivered', 1],
    ]);
    // Verified with the certificate served by the simulator (fetched once, then cached) and
    // confirmed by fetching each SubscribeURL.
    expect(receiver.fetched.filter((p) => p === '/_sim/sns/cert.pem')).toHaveLength(1);
    expect(receiver.fetched.filter((p) => p === '/_sim/sns/confirm')).toHaveLength(2);

    const [listed] = await subscriptions.list();
    expect(listed?.id).toBe(created.id);
    expect(listed?.subscriptionDetails.map((d) => d.status)).toEqual(['confirmed', 'confirmed']);

    // An APIPromise like every call: the response is the DELETE's (204), not the list read before it.
    const { data, response } = await subscriptions.delete(created.id).withResponse();
    expect(data).toBeUndefined();
    expect(response.status).toBe(204);
    expect(response.requestId).toMatch(/\S/);
    expect(await subscriptions.list()).toEqual([]);
    expect(requests.filter((r) => r.startsWith('DELETE '))).toEqual([
      `DELETE /v1/notifications/subscriptions/${created.id}`,
    ]);
  });

  it('delivers the entity’s account events as signed SNS notifications once a detail is confirmed', async () => {
    server = await startSimulator();
    receiver = await startReceiver(server.url, BURNER);
    await server.client().snsSubscriptions.create({ endpoint: receiver.url });
    await server.platform.idle();

    const burner = server.entityId(BURNER);
    const order = { orderId: 'o-1', status: 'pending' };
    server.platform.onSimulatorEvent({
      channel: 'account',
      entityId: burner,
      event: 'order.accepted',
      data: order,
    });
    server.platform.onSimulatorEvent({ channel: 'market', event: 'auction.opened', data: {} });
    server.platform.onSimulatorEvent({
      channel: 'account',
      entityId: server.entityId(MINTER),
      event: 'order.accepted',
      data: {},
    });
    await server.platform.idle();

    expect(receiver.errors).toEqual([]);
    expect(receiver.events).toHaveLength(1);
    const [event] = receiver.events;
    if (event?.version !== 1) throw new Error('expected a v1 event');
    expect(event.notification.Type).toBe('Notification');
    expect(event.notification.SignatureVersion).toBe('2');
    expect(JSON.parse(event.notification.Message)).toEqual({
      clientId: burner,
      notificationType: 'order.accepted',
      version: 1,
      notification: order,
    });
  });

  it('redelivers a v1 notification after a non-2xx, and counts any 2xx (204) as delivered', async () => {
    server = await startSimulator();
    receiver = await startReceiver(server.url, BURNER);
    await server.client().snsSubscriptions.create({ endpoint: receiver.url });
    await server.platform.idle();
    const burner = server.entityId(BURNER);

    receiver.failNext.push(503);
    const [retried] = await server.platform.publish(burner, 'withdrawal.updated', { id: 'w-1' });
    await server.platform.idle();
    expect(retried?.kind).toBe('v1-notification');
    expect(retried?.attempts.map((a) => a.status)).toEqual([503, 200]);
    expect(retried?.state).toBe('delivered');
    expect(receiver.events).toHaveLength(1);

    receiver.failNext.push(204);
    const [accepted] = await server.platform.publish(burner, 'balance.updated', {});
    await server.platform.idle();
    expect(accepted?.attempts.map((a) => a.status)).toEqual([204]);
    expect(accepted?.state).toBe('delivered');
    // The 204 was answered without the receiver handling it: no redelivery followed.
    expect(receiver.events).toHaveLength(1);
  });

  it('redelivers a confirmation the endpoint failed, then confirms it', async () => {
    // A longer first retry delay so both first attempts arrive before either retry does.
    server = await startSimulator({ mode: 'production', retrySchedule: [300] });
    receiver = await startReceiver(server.url, BURNER);
    receiver.failNext.push(500, 500);
    const { snsSubscriptions: subscriptions } = server.client();
    const created = await subscriptions.create({ endpoint: receiver.url });
    await server.platform.idle();
    const confirmations = server.platform.deliveries().filter((d) => d.kind === 'v1-confirmation');
    expect(confirmations.map((d) => [d.state, d.attempts.map((a) => a.status)])).toEqual([
      ['delivered', [500, 200]],
      ['delivered', [500, 200]],
    ]);
    const [listed] = await subscriptions.list();
    expect(listed?.id).toBe(created.id);
    expect(listed?.subscriptionDetails.map((d) => d.status)).toEqual(['confirmed', 'confirmed']);
  });

  it('blocks deletion while a detail is pending: client-side (no DELETE sent) and server-side', async () => {
    server = await startSimulator();
    // Answering both confirmations with a bare 200 leaves both details pending.
    receiver = await startReceiver(server.url, BURNER);
    receiver.failNext.push(200, 200);
    const { snsSubscriptions: subscriptions, requests } = server.client();
    const created = await subscriptions.create({ endpoint: receiver.url });
    await server.platform.idle();

    const error = await subscriptions.delete(created.id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SubscriptionPendingError);
    expect((error as SubscriptionPendingError).subscriptionId).toBe(created.id);
    expect((error as SubscriptionPendingError).pendingDetails).toHaveLength(2);
    expect((error as Error).message).toMatch(/pending.*No DELETE request was sent/s);
    expect(requests).toEqual(['POST /v1/notifications/subscriptions', 'GET /v1/notifications/subscriptions']);

    const raw = await rawDelete(created.id);
    expect(raw.status).toBe(400);
    // 400 code 2, not 409: docs/PROTOCOL.md ("Deleting a v1 subscription with a pending entry").
    const body = (await raw.json()) as { code: number; message: string; errors: unknown[] };
    expect(body.code).toBe(2);
    expect(body.message).toMatch(/pending/);
    expect(body.errors[0]).toMatchObject({ location: 'id', error: 'subscription_pending' });
    expect((await subscriptions.list()).map((s) => s.id)).toEqual([created.id]);
  });

  it('answers 404 for an unknown subscription and 400 for a malformed id', async () => {
    server = await startSimulator();
    const missing = await server
      .client()
      .snsSubscriptions.delete('6f1c1d2e-3b4a-4c5d-8e6f-7a8b9c0d1e2f')
      .catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect((missing as NotFoundError).venueCode).toBe(2);
    expect((await rawDelete('not-a-uuid')).status).toBe(400);
  });

  it.each([
    ['sandbox', 3],
    ['production', 1],
  ] as const)('limits active subscriptions in %s to %i (400, code 2)', async (mode, limit) => {
    server = await startSimulator({ mode });
    const { snsSubscriptions: subscriptions } = server.client();
    for (let i = 0; i < limit; i++) await subscriptions.create({ endpoint: `http://127.0.0.1:9/hook-${i}` });
    const error = await subscriptions
      .create({ endpoint: 'http://127.0.0.1:9/one-more' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).venueCode).toBe(2);
    expect((error as BadRequestError).serverMessage).toMatch(new RegExp(`${mode} allows ${limit} active`));
    expect(await subscriptions.list()).toHaveLength(limit);
    // Another entity has its own allowance.
    await expect(
      server.client(MINTER).snsSubscriptions.create({ endpoint: 'http://127.0.0.1:9/m' }),
    ).resolves.toMatchObject({ endpoint: 'http://127.0.0.1:9/m' });
  });

  it.each([
    ['sandbox', 30 * DAY],
    ['production', 72 * HOUR],
  ] as const)('removes pending details in %s after %i ms on the simulator clock', async (mode, age) => {
    server = await startSimulator({ mode, retrySchedule: [] });
    const { snsSubscriptions: subscriptions } = server.client();
    const created = await subscriptions.create({ endpoint: 'http://127.0.0.1:9/unreachable' });
    server.sim.advance(age - 1);
    expect((await subscriptions.list()).map((s) => s.id)).toEqual([created.id]);
    server.sim.advance(1);
    expect(await subscriptions.list()).toEqual([]);
    // The freed slot can be used again (production allows only one).
    await expect(subscriptions.create({ endpoint: 'http://127.0.0.1:9/again' })).resolves.toMatchObject({
      endpoint: 'http://127.0.0.1:9/again',
    });
  });

  it('keeps the confirmed detail when the other expires pending; its SubscribeURL then fails', async () => {
    server = await startSimulator({ mode: 'production' });
    receiver = await startReceiver(server.url, BURNER);
    // The first confirmation is answered without confirming; the second is verified and confirmed.
    receiver.failNext.push(200);
    const { snsSubscriptions: subscriptions } = server.client();
    const created = await subscriptions.create({ endpoint: receiver.url });
    await server.platform.idle();
    expect(receiver.confirmations).toHaveLength(1);
    server.sim.advance(72 * HOUR);

    const [left] = await subscriptions.list();
    expect(left?.subscriptionDetails).toHaveLength(1);
    expect(left?.subscriptionDetails[0]?.status).toBe('confirmed');
    expect(left?.subscriptionDetails[0]?.url).toBe(receiver.confirmations[0]);
    const state = (await (await fetch(`${server.url}/_sim/platform/state`)).json()) as {
      data: { v1Subscriptions: { id: string }[] };
    };
    expect(state.data.v1Subscriptions.map((s) => s.id)).toEqual([created.id]);
    // The SubscribeURL of the confirmation that was answered without confirming no longer works.
    const [unconfirmed] = receiver.unhandled.map((body) => JSON.parse(body) as { SubscribeURL: string });
    expect(unconfirmed?.SubscribeURL).toContain('/_sim/sns/confirm?');
    expect((await fetch(unconfirmed!.SubscribeURL)).status).toBe(404);
    expect((await subscriptions.list())[0]?.subscriptionDetails).toHaveLength(1);
    // With only confirmed entries left, deletion is allowed.
    await subscriptions.delete(created.id);
  });

  it('refuses a non-https endpoint off loopback before sending anything', async () => {
    server = await startSimulator();
    const { snsSubscriptions: subscriptions, requests } = server.client();
    await expect(subscriptions.create({ endpoint: 'http://example.com/hook' })).rejects.toThrow(
      /endpoint: must be an HTTPS URL/,
    );
    expect(requests).toEqual([]);
  });
});
