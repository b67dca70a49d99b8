import { createSnsVerifier, type SnsSubscriptionConfirmation } from 'match-venue/webhooks';
import { loopbackUrlPolicy } from 'match-venue/webhooks/testing';
import { describe, expect, it } from 'vitest';
import { createPlatform } from '../../../src/simulator/platform/index.js';
import { servePlatform } from '../../fixtures/platform/serve-platform.js';

const ORIGIN = 'http://127.0.0.1:4010';

/** A fetch standing in for subscriber endpoints: HEAD answers 200, every POST is recorded. */
function endpointFetch() {
  const posts: { url: string; headers: Headers; body: string }[] = [];
  const fetchFn = (async (input: string | URL | Request, init?: RequestInit) => {
    if (init?.method === 'POST') {
      posts.push({ url: String(input), headers: new Headers(init.headers), body: String(init.body) });
    }
    return new Response(null, { status: 200 });
  }) as typeof fetch;
  return { fetchFn, posts };
}

function request(method: string, path: string, body?: unknown): Request {
  return new Request(`${ORIGIN}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

describe('createPlatform in-process', () => {
  it('signs SNS confirmations with SignatureVersion 1 when asked, with URLs on the request origin', async () => {
    const { fetchFn, posts } = endpointFetch();
    const platform = createPlatform({
      now: () => 0,
      fetch: fetchFn,
      mode: 'sandbox',
      snsSignatureVersion: '1',
    });
    const created = await servePlatform(
      platform,
      request('POST', '/v1/notifications/subscriptions', { endpoint: 'https://hooks.example/a' }),
    );
    expect(created?.status).toBe(201);
    await platform.idle();
    expect(posts).toHaveLength(2);
    const verifier = createSnsVerifier({
      trustedCertificate: (await platform.signers()).sns.certificatePem,
      urlPolicy: loopbackUrlPolicy,
    });
    for (const post of posts) {
      expect(post.url).toBe('https://hooks.example/a');
      expect(post.headers.get('x-amz-sns-message-type')).toBe('SubscriptionConfirmation');
      const message = (await verifier.verify(post.body)) as SnsSubscriptionConfirmation;
      expect(message.SignatureVersion).toBe('1');
      expect(message.SigningCertURL).toBe(`${ORIGIN}/_sim/sns/cert.pem`);
      expect(message.SubscribeURL.startsWith(`${ORIGIN}/_sim/sns/confirm?Action=ConfirmSubscription&`)).toBe(
        true,
      );
      expect(message.Timestamp).toBe('1970-01-01T00:00:00.000Z');
      const confirmed = await servePlatform(platform, new Request(message.SubscribeURL));
      expect(confirmed?.status).toBe(200);
      expect(await confirmed?.text()).toContain('<SubscriptionArn>arn:aws:sns:');
    }
    const cert = await servePlatform(platform, new Request(`${ORIGIN}/_sim/sns/cert.pem`));
    expect(await cert?.text()).toBe((await platform.signers()).sns.certificatePem);
    await platform.close();
  });

  it('uses the configured base URL over the request origin', async () => {
    const { fetchFn, posts } = endpointFetch();
    const platform = createPlatform({
      now: () => 0,
      fetch: fetchFn,
      mode: 'sandbox',
      baseUrl: () => 'http://sim.test:1/',
    });
    await servePlatform(
      platform,
      request('POST', '/v1/notifications/subscriptions', { endpoint: 'https://hooks.example/a' }),
    );
    await platform.idle();
    expect(JSON.parse(posts[0]!.body).SigningCertURL).toBe('http://sim.test:1/_sim/sns/cert.pem');
    await platform.close();
  });

  it('skips disabled v2 subscriptions and filters by notificationTypes', async () => {
    const { fetchFn, posts } = endpointFetch();
    const platform = createPlatform({ now: () => 0, fetch: fetchFn, mode: 'sandbox' });
    const create = (path: string, body: unknown) => servePlatform(platform, request('POST', path, body));
    await create('/v2/payments-network/notifications/subscriptions', {
      endpoint: 'https://hooks.example/off',
      name: 'off',
      enabled: false,
      notificationTypes: ['*'],
    });
    await create('/v2/notifications/subscriptions', {
      endpoint: 'https://hooks.example/orders',
      notificationTypes: ['order.*'],
    });
    await create('/v2/fx/notifications/subscriptions', {
      endpoint: 'https://hooks.example/exact',
      notificationTypes: ['balance.updated'],
    });
    await platform.publish('e1', 'order.updated', { n: 1 });
    await platform.publish('e1', 'balance.updated', { n: 2 });
    await platform.idle();
    expect(posts.map((p) => [p.url, JSON.parse(p.body).notificationType])).toEqual([
      ['https://hooks.example/orders', 'order.updated'],
      ['https://hooks.example/exact', 'balance.updated'],
    ]);
    await platform.close();
  });

  it('answers only its own paths', async () => {
    const platform = createPlatform({ now: () => 0, fetch: endpointFetch().fetchFn, mode: 'sandbox' });
    expect(await servePlatform(platform, request('GET', '/v1/match/account'))).toBeUndefined();
    expect(await servePlatform(platform, request('GET', '/_sim/state'))).toBeUndefined();
    const wrong = await servePlatform(platform, request('PUT', '/v1/configuration'));
    expect(wrong?.status).toBe(405);
    expect(wrong?.headers.get('allow')).toBe('GET, HEAD');
    // The platform's paths, unlike the venue's, are matched with their trailing slashes dropped.
    expect((await servePlatform(platform, request('GET', '/v1/configuration//')))?.status).toBe(200);
    const badJson = await servePlatform(
      platform,
      new Request(`${ORIGIN}/v1/notifications/subscriptions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{',
      }),
    );
    expect(badJson?.status).toBe(400);
    expect(await badJson?.json()).toMatchObject({ code: 2, errors: [{ location: 'body' }] });
    await platform.close();
  });

  it('answers a malformed percent-escape in an id with 400 code 2, not a 500', async () => {
    const platform = createPlatform({ now: () => 0, fetch: endpointFetch().fetchFn, mode: 'sandbox' });
    const deleted = await servePlatform(
      platform,
      request('DELETE', '/v1/notifications/subscriptions/%E0%A4%A'),
    );
    expect(deleted?.status).toBe(400);
    expect(await deleted?.json()).toMatchObject({ code: 2, errors: [{ location: 'id' }] });
    const key = await servePlatform(platform, request('GET', '/v2/notifications/publicKey/%ZZ'));
    expect(key?.status).toBe(400);
    expect(await key?.json()).toMatchObject({ code: 2, errors: [{ location: 'keyId' }] });
    await platform.close();
  });
});
