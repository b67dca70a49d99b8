import { createSimulator, SEEDED, type Simulator } from 'match-venue/simulator';
import { describe, expect, it } from 'vitest';
import { ReadBody } from '../../../src/simulator/http/body.js';
import type { Inbound, Outcome } from '../../../src/simulator/http/handler.js';
import { resolveRoute } from '../../../src/simulator/http/resolve-route.js';
import { HttpError } from '../../../src/simulator/http/responses.js';

const AUTH = `Bearer ${SEEDED.burner.apiKey}`;

/** An Inbound as node:http builds it: headers, a body already read, no web Request. */
function inbound(method: string, path: string, body = ''): Inbound {
  return {
    method,
    path,
    search: '',
    header: (name) => (name === 'authorization' ? AUTH : name === 'content-type' ? 'application/json' : null),
    body: new ReadBody(new TextEncoder().encode(body), 'application/json'),
    web: () => {
      throw new Error('a venue route must not build a web Request');
    },
  };
}

/** `req` dispatched as node:http does, on its route resolved once beforehand. */
function dispatch(sim: Simulator, req: Inbound, requestId: string) {
  const route = resolveRoute(sim.platform, req.method, req.path);
  if (route instanceof HttpError) throw route;
  return sim.dispatch(req, requestId, route);
}

// Issue 23: with nothing to await, dispatch answers at once (no Promise, no microtask), and only
// what truly waits (the latency fault here) returns a Promise; both give the same answer.
describe('dispatch', () => {
  it('answers a venue GET and a body POST synchronously, the same answer as with latency', async () => {
    const sim = createSimulator({ clock: 'manual', seed: 5 });
    const account = dispatch(sim, inbound('GET', '/v1/match/account'), 'r1');
    expect(account).not.toBeInstanceOf(Promise);
    const refused = dispatch(sim, inbound('POST', '/v1/match/orders/modify', '{"a":'), 'r2');
    expect(refused).not.toBeInstanceOf(Promise);
    expect(refused).toEqual({
      status: 400,
      headers: { 'content-type': 'application/json' },
      body: expect.stringContaining('"message":"Request body is not valid JSON"'),
    });

    sim.setFaults({ latencyMs: 20 });
    const later = dispatch(sim, inbound('GET', '/v1/match/account'), 'r3');
    expect(later).toBeInstanceOf(Promise);
    expect(await later).toEqual(account as Outcome);
    await sim.close();
  });

  it('throws the dropResponse fault synchronously too, once; the next request is answered', async () => {
    const sim = createSimulator({ clock: 'manual', seed: 5 });
    sim.setFaults({ dropResponse: 1 });
    expect(() => dispatch(sim, inbound('GET', '/v1/match/account'), 'r1')).toThrow('fetch failed');
    expect(dispatch(sim, inbound('GET', '/v1/match/account'), 'r2')).toMatchObject({ status: 200 });
    await sim.close();
  });
});
