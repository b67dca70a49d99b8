import { BadRequestError, NotFoundError, usd } from 'match-venue';
import { SEEDED } from 'match-venue/simulator';
import { afterEach, describe, expect, it } from 'vitest';
import {
  BURNER as KEY,
  MINTER,
  platformClient,
  type Receiver,
  type SimServer,
  startReceiver,
  startSimulator,
} from './harness.js';

let sim: SimServer | undefined;
let receiver: Receiver | undefined;
afterEach(async () => {
  await receiver?.close();
  await sim?.close();
  receiver = undefined;
  sim = undefined;
});

describe('v2 notifications against the simulator', () => {
  it('validates the endpoint with HEAD first and refuses one without HEAD (400, code 2, errors naming endpoint)', async () => {
    sim = await startSimulator();
    receiver = await startReceiver(sim.url, KEY, { noHead: true });
    const { webhookSubscriptions: notifications } = platformClient(sim.url, KEY);
    const error = await notifications
      .create({ endpoint: receiver.url, notificationTypes: ['*'] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    const apiError = error as BadRequestError;
    expect(apiError.venueCode).toBe(2);
    expect(apiError.errors).toHaveLength(1);
    expect(apiError.errors[0]).toMatchObject({ location: 'endpoint', invalidValue: receiver.url });
    expect(apiError.errors[0]?.message).toMatch(/HEAD with HTTP 405/);
    expect(receiver.seen).toEqual(['HEAD']);
  });

  it('refuses an unreachable endpoint', async () => {
    sim = await startSimulator({ deliveryTimeoutMs: 2000 });
    const { webhookSubscriptions: notifications } = platformClient(sim.url, KEY);
    const error = await notifications
      .createFx({ endpoint: 'http://127.0.0.1:9/nothing-listens', notificationTypes: ['*'] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).errors[0]?.location).toBe('endpoint');
  });

  it('creates each variant with its own body and response fields', async () => {
    sim = await startSimulator();
    receiver = await startReceiver(sim.url, KEY);
    const { webhookSubscriptions: notifications } = platformClient(sim.url, KEY);

    const wallet = await notifications.create({ endpoint: receiver.url, notificationTypes: ['order.*'] });
    expect(wallet).toMatchObject({
      endpoint: receiver.url,
      enabled: true,
      restricted: false,
      notificationTypes: ['order.*'],
    });
    expect(wallet).not.toHaveProperty('addresses');

    const network = await notifications.createPaymentsNetwork({
      endpoint: receiver.url,
      name: 'settlements',
      enabled: false,
      notificationTypes: ['*'],
    });
    expect(network).toMatchObject({ name: 'settlements', enabled: false, restricted: false });

    const fx = await notifications.createFx({ endpoint: receiver.url, notificationTypes: ['*'] });
    expect(fx.restricted).toBe(false);

    const transfer = await notifications.createTransfer({
      environment: 'mainnet',
      endpoint: receiver.url,
      addresses: ['0xabc'],
      domains: [0, 6],
      notificationTypes: ['transfer.*'],
    });
    expect(transfer).toMatchObject({
      environment: 'mainnet',
      addresses: ['0xabc'],
      domains: [0, 6],
      notificationTypes: ['transfer.*'],
    });
    expect(transfer).not.toHaveProperty('restricted');
    for (const s of [wallet, network, fx, transfer]) {
      expect(s.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(s.createDate).toBe('2026-01-01T00:00:00.000Z');
    }
    expect(receiver.seen).toEqual(['HEAD', 'HEAD', 'HEAD', 'HEAD']);
  });

  it('validates bodies: a field failing its rule is a 400 code 2 naming the field', async () => {
    sim = await startSimulator();
    const response = await fetch(`${sim.url}/v2/notifications/subscriptions/permissionless`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ endpoint: 'https://example.test/hook', domains: ['x'] }),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { code: number; errors: { location: string }[] };
    expect(body.code).toBe(2);
    expect(body.errors.map((e) => e.location)).toEqual(['domains.0']);
  });

  it('delivers signed notifications the receiver verifies with the key from the public-key endpoint', async () => {
    sim = await startSimulator();
    receiver = await startReceiver(sim.url, KEY);
    const { webhookSubscriptions: notifications } = platformClient(sim.url, KEY);
    const subscription = await notifications.create({
      endpoint: receiver.url,
      notificationTypes: ['order.*'],
    });

    const order = { orderId: 'o-1', status: 'filled' };
    await sim.platform.publish(sim.entityId(KEY), 'order.updated', order);
    await sim.platform.publish(sim.entityId(KEY), 'balance.updated', { x: 1 });
    await sim.platform.publish(sim.entityId(MINTER), 'order.updated', order);
    await sim.platform.idle();

    expect(receiver.errors).toEqual([]);
    expect(receiver.events).toHaveLength(1);
    const [event] = receiver.events;
    if (event?.version !== 2) throw new Error('expected a v2 event');
    expect(event.keyId).toBe((await sim.platform.signers()).v2.keyId);
    expect(event.notification).toMatchObject({
      subscriptionId: subscription.id,
      notificationType: 'order.updated',
      notification: order,
      version: 2,
    });
    expect(receiver.fetched.filter((p) => p.startsWith('/v2/notifications/publicKey/'))).toHaveLength(1);
  });

  it('turns the simulator’s own account events into deliveries (a placed order)', async () => {
    sim = await startSimulator();
    receiver = await startReceiver(sim.url, KEY);
    const { venue, webhookSubscriptions: notifications } = platformClient(sim.url, KEY);
    await notifications.create({ endpoint: receiver.url, notificationTypes: ['order.accepted'] });
    const placed = await venue.orders.place({
      orderType: 'BURN',
      amount: usd('1000'),
      feeBps: '5',
      postFillAction: 'cancel',
      sourceWalletId: SEEDED.burner.walletId,
      fiatAccountId: SEEDED.burner.fiatAccountId,
    });
    await sim.platform.idle();
    expect(receiver.errors).toEqual([]);
    expect(receiver.events.map((e) => e.version === 2 && e.notification.notificationType)).toEqual([
      'order.accepted',
    ]);
    const [event] = receiver.events;
    if (event?.version !== 2) throw new Error('expected a v2 event');
    expect(event.notification.notification).toMatchObject({ orderId: placed.orderId, orderType: 'BURN' });
  });

  it('redelivers after a non-200: first answer 500, then 200 -> exactly two attempts, handled once', async () => {
    sim = await startSimulator();
    receiver = await startReceiver(sim.url, KEY);
    const { webhookSubscriptions: notifications } = platformClient(sim.url, KEY);
    await notifications.create({ endpoint: receiver.url, notificationTypes: ['*'] });
    receiver.failNext.push(500);

    const [record] = await sim.platform.publish(sim.entityId(KEY), 'withdrawal.updated', { id: 'w-1' });
    await sim.platform.idle();

    expect(record?.attempts.map((a) => a.status)).toEqual([500, 200]);
    expect(record?.state).toBe('delivered');
    expect(receiver.events).toHaveLength(1);
    expect(receiver.seen.filter((m) => m === 'POST')).toHaveLength(2);
  });

  it('treats a 2xx other than 200 as a failed v2 delivery and gives up after the schedule', async () => {
    sim = await startSimulator({ retrySchedule: [1, 1] });
    receiver = await startReceiver(sim.url, KEY);
    const { webhookSubscriptions: notifications } = platformClient(sim.url, KEY);
    await notifications.create({ endpoint: receiver.url, notificationTypes: ['*'] });
    receiver.failNext.push(204, 204, 204);
    const [record] = await sim.platform.publish(sim.entityId(KEY), 'order.updated', {});
    await sim.platform.idle();
    expect(record?.attempts.map((a) => a.status)).toEqual([204, 204, 204]);
    expect(record?.state).toBe('failed');
    expect(receiver.events).toEqual([]);
  });

  it('serves the public key; an unknown key id is 404', async () => {
    sim = await startSimulator();
    const { webhookSubscriptions: notifications } = platformClient(sim.url, KEY);
    const { v2 } = await sim.platform.signers();
    const key = await notifications.getPublicKey(v2.keyId);
    expect(key).toEqual(v2.publicKeyRecord);
    expect(key.algorithm).toBe('ECDSA_SHA_256');
    await expect(notifications.getPublicKey('00000000-0000-4000-8000-000000000000')).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });
});

describe('configuration and key verification', () => {
  it('retrieves the configuration and verifies keys (true, false on 401, rethrows others)', async () => {
    sim = await startSimulator();
    const { configuration } = platformClient(sim.url, KEY);
    const config = await configuration.retrieve();
    expect(config.payments.masterWalletId).toMatch(/^\d{10}$/);
    expect(
      (await platformClient(sim.url, 'TEST_API_KEY:burner:sim').configuration.retrieve()).payments,
    ).toEqual(config.payments);
    expect(await configuration.verifyApiKey()).toBe(true);
    // A well-formed key the platform does not know: 401 code 156007.
    expect(
      await platformClient(sim.url, 'TEST_API_KEY:nobody:unknown-secret').configuration.verifyApiKey(),
    ).toBe(false);
    // A malformed credential is refused by the platform with 401 code 401.
    const malformed = await fetch(`${sim.url}/v1/configuration`, { headers: { authorization: 'Bearer x' } });
    expect(malformed.status).toBe(401);
    expect(((await malformed.json()) as { code: number }).code).toBe(401);
    await sim.close();
    await expect(configuration.verifyApiKey()).rejects.toThrow(/Connection error/);
    sim = undefined;
  });
});
