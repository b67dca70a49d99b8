import { describe, expect, it } from 'vitest';
import { DeliveryQueue, type DeliveryRequest } from '../../../src/simulator/platform/deliveries.js';

function scriptedFetch(statuses: (number | Error)[]) {
  const calls: { url: string; init: RequestInit | undefined }[] = [];
  const fetchFn = (async (url: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(url), init });
    const next = statuses[Math.min(calls.length - 1, statuses.length - 1)];
    if (next instanceof Error) throw next;
    const status = next ?? 500;
    return new Response(status === 204 ? null : 'ok', { status });
  }) as typeof fetch;
  return { fetchFn, calls };
}

const sleeps: number[] = [];
const instantSleep = async (ms: number) => {
  sleeps.push(ms);
};

function request(kind: DeliveryRequest['kind']): DeliveryRequest {
  return {
    kind,
    subscriptionId: 's1',
    endpoint: 'http://127.0.0.1:9/hook',
    messageId: 'm1',
    headers: { 'content-type': 'application/json' },
    body: '{"x":1}',
  };
}

describe('DeliveryQueue', () => {
  it('v2 counts only 200 as delivered and retries on the schedule', async () => {
    sleeps.length = 0;
    const { fetchFn, calls } = scriptedFetch([204, 500, 200]);
    const q = new DeliveryQueue({ fetch: fetchFn, retrySchedule: [10, 20, 40], sleep: instantSleep });
    const record = q.enqueue(request('v2-notification'));
    await q.idle();
    expect(record.state).toBe('delivered');
    expect(record.attempts.map((a) => a.status)).toEqual([204, 500, 200]);
    expect(sleeps).toEqual([10, 20]);
    expect(calls.every((c) => c.init?.method === 'POST' && c.init.body === '{"x":1}')).toBe(true);
  });

  it('v1 counts any 2xx as delivered', async () => {
    const { fetchFn } = scriptedFetch([204]);
    const q = new DeliveryQueue({ fetch: fetchFn, retrySchedule: [10], sleep: instantSleep });
    const record = q.enqueue(request('v1-notification'));
    await q.idle();
    expect(record.state).toBe('delivered');
    expect(record.attempts).toHaveLength(1);
  });

  it('fails after 1 + schedule length attempts, recording network errors', async () => {
    const { fetchFn, calls } = scriptedFetch([new Error('ECONNREFUSED'), 503]);
    const q = new DeliveryQueue({ fetch: fetchFn, retrySchedule: [1, 2, 3], sleep: instantSleep });
    const record = q.enqueue(request('v1-confirmation'));
    await q.idle();
    expect(record.state).toBe('failed');
    expect(calls).toHaveLength(4);
    expect(record.attempts[0]).toMatchObject({ error: 'ECONNREFUSED' });
    expect(record.attempts.slice(1).map((a) => a.status)).toEqual([503, 503, 503]);
    expect(q.log()).toEqual([record]);
  });

  it('close() stops a delivery waiting for its next retry', async () => {
    const { fetchFn, calls } = scriptedFetch([500]);
    const q = new DeliveryQueue({ fetch: fetchFn, retrySchedule: [60_000] });
    const record = q.enqueue(request('v2-notification'));
    while (record.attempts.length === 0) await new Promise((r) => setImmediate(r));
    await q.close();
    expect(record.state).toBe('failed');
    expect(calls).toHaveLength(1);
  });

  it('reports each settled delivery once', async () => {
    const { fetchFn } = scriptedFetch([200]);
    const q = new DeliveryQueue({ fetch: fetchFn, retrySchedule: [], sleep: instantSleep });
    const settled: string[] = [];
    q.onSettled((r) => settled.push(r.state));
    q.enqueue(request('v2-notification'));
    q.enqueue(request('v2-notification'));
    await q.idle();
    expect(settled).toEqual(['delivered', 'delivered']);
  });
});
