import { describe, expect, it } from 'vitest';
import { call, start, useStartedCleanup } from './robustness-server.js';

useStartedCleanup();

describe('bounded error details on platform and venue routes (issue 9.3b)', () => {
  const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
  const TOO_DEEP = {
    error: 'too_deep',
    message: 'must not nest arrays or objects deeper than 64 levels',
    location: 'body',
    invalidValue: '',
    constraints: {},
  };

  it('a field nested 10,000 deep on a platform route is 400 code 2, not a 500', async () => {
    const { sim, logged } = await start();
    for (const path of ['/v1/notifications/subscriptions', '/v2/notifications/subscriptions']) {
      const res = await call(sim, 'POST', path, `{"endpoint":${deep(10_000)},"notificationTypes":["*"]}`);
      expect({ path, status: res.status, body: await res.json() }).toEqual({
        path,
        status: 400,
        body: { code: 2, message: 'Invalid entity: the body is nested too deeply.', errors: [TOO_DEEP] },
      });
    }
    const venue = await call(sim, 'POST', '/v1/match/orders', `{"amount":${deep(10_000)}}`);
    expect({ status: venue.status, body: await venue.json() }).toEqual({
      status: 400,
      body: {
        code: 2,
        message: 'Request body is nested too deeply',
        errors: [
          {
            error: 'too_deep',
            message: 'must not nest arrays or objects deeper than 64 levels',
            location: 'body',
            constraints: { maximum: 64 },
          },
        ],
      },
    });
    expect(logged).toEqual([]);
  });

  it('a 1 MB invalid value is echoed clipped to 200 characters; the body stays under 4 KiB', async () => {
    const { sim } = await start();
    const huge = 'z'.repeat(1_000_000);
    for (const path of ['/v1/notifications/subscriptions', '/v2/fx/notifications/subscriptions']) {
      const res = await call(sim, 'POST', path, JSON.stringify({ endpoint: huge, notificationTypes: ['*'] }));
      const text = await res.text();
      expect(res.status).toBe(400);
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(4096);
      expect(JSON.parse(text)).toMatchObject({
        code: 2,
        errors: [{ location: 'endpoint', invalidValue: `${'z'.repeat(200)}…` }],
      });
    }
    const venue = await call(sim, 'POST', '/v1/match/orders', JSON.stringify({ orderType: huge }));
    const text = await venue.text();
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(4096);
    expect(JSON.parse(text)).toMatchObject({
      code: 2,
      errors: expect.arrayContaining([
        expect.objectContaining({ location: 'orderType', invalidValue: `${'z'.repeat(200)}…` }),
      ]),
    });
  });

  it('an https endpoint of 1 MB that fails the HEAD check is echoed clipped too', async () => {
    const { sim } = await start({ fetch: async () => new Response(null, { status: 404 }) });
    const endpoint = `https://example.com/${'p'.repeat(1_000_000)}`;
    const res = await call(
      sim,
      'POST',
      '/v2/notifications/subscriptions',
      JSON.stringify({ endpoint, notificationTypes: ['*'] }),
    );
    const text = await res.text();
    expect(res.status).toBe(400);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(4096);
    expect(JSON.parse(text)).toEqual({
      code: 2,
      message: 'Invalid request: the endpoint failed validation.',
      errors: [
        {
          error: 'endpoint_validation_failed',
          message: 'the endpoint answered HEAD with HTTP 404; it must answer HEAD with 2xx',
          location: 'endpoint',
          invalidValue: `${endpoint.slice(0, 200)}…`,
          constraints: {},
        },
      ],
    });
  });

  it('input echoed in messages, keys and thousands of failing entries stays under 4 KiB', async () => {
    const { sim } = await start();
    const longPath = `/v1/match/${'p'.repeat(15_000)}`;
    const notFound = await call(sim, 'GET', longPath);
    const nf = await notFound.text();
    expect(notFound.status).toBe(404);
    expect(JSON.parse(nf)).toEqual({ code: -1, message: `${`No route for GET ${longPath}`.slice(0, 300)}…` });

    const key = 'k'.repeat(500_000);
    const strict = await sim.handle(
      new Request('http://sim.test/_sim/faults', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ [key]: 1 }),
      }),
    );
    const st = await strict.text();
    expect(strict.status).toBe(400);
    expect(Buffer.byteLength(st)).toBeLessThanOrEqual(4096);

    const many = await call(
      sim,
      'POST',
      '/v1/notifications/subscriptions',
      JSON.stringify({ endpoint: Array(100_000).fill(1) }),
    );
    const mt = await many.text();
    expect(many.status).toBe(400);
    expect(Buffer.byteLength(mt)).toBeLessThanOrEqual(4096);
    expect((JSON.parse(mt) as { code: number }).code).toBe(2);
  });
});
