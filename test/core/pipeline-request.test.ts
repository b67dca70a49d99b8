import { MatchVenue, ResponseValidationError } from 'match-venue';
import { MockAgent } from 'undici';
import { describe, expect, it } from 'vitest';
import { json } from '../helpers/scripted-server.js';
import { apiClientOf } from '../../src/client/match-venue.js';

import { client, get, KEY, Ok, server, useScriptedServer } from './pipeline-setup.js';

useScriptedServer();

describe('request pipeline', () => {
  it('unwraps data and exposes status, headers and request id', async () => {
    server.script(json(200, { data: { ok: true } }), json(202, { data: { ok: false } }));
    const { venue } = client();
    await expect(get(venue)).resolves.toEqual({ ok: true });
    const { data, response } = await get(venue).withResponse();
    expect(data).toEqual({ ok: false });
    expect(response.status).toBe(202);
    expect(response.requestId).toBe('req-202');
    expect(response.headers['content-type']).toBe('application/json');
    expect(server.seen[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(server.seen[0]?.headers['user-agent']).toMatch(/^match-venue-node\//);
  });

  it('APIPromise is a real Promise: Promise.all, instanceof, lazy parse', async () => {
    server.script(json(200, { data: { ok: true } }), json(200, { data: { ok: false } }));
    const { venue } = client();
    const a = get(venue);
    const b = get(venue);
    expect(a).toBeInstanceOf(Promise);
    await expect(Promise.all([a, b])).resolves.toEqual([{ ok: true }, { ok: false }]);
  });

  it('asResponse gives the unparsed response', async () => {
    server.script(json(200, { data: { ok: true }, extra: 1 }));
    const res = await get(client().venue).asResponse();
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: { ok: true }, extra: 1 });
  });

  it('sends query values and JSON bodies', async () => {
    server.script(json(200, { data: { ok: true } }));
    await apiClientOf(client().venue).request({
      method: 'POST',
      path: '/v1/thing',
      query: { a: 1, b: 'x y', c: undefined },
      body: { hello: 'world' },
      responseSchema: Ok,
    });
    expect(server.seen[0]?.url).toBe('/v1/thing?a=1&b=x+y');
    expect(server.seen[0]?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(server.seen[0]?.body ?? '')).toEqual({ hello: 'world' });
  });

  it('rejects a success body that does not match the schema', async () => {
    server.script(json(200, { data: { ok: 'yes' } }));
    const err = await get(client().venue).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ResponseValidationError);
    expect((err as ResponseValidationError).issues[0]?.path).toBe('ok');
  });

  it('validateResponses: false trusts the body as sent', async () => {
    server.script(json(200, { data: { ok: 'yes' } }));
    const { venue } = client({ validateResponses: false });
    await expect(get(venue)).resolves.toEqual({ ok: 'yes' });
  });

  it('sends through the undici dispatcher given (proxies, custom pools, MockAgent)', async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    // Nothing listens on port 9: only the dispatcher can answer.
    agent
      .get('http://127.0.0.1:9')
      .intercept({ path: '/v1/thing', method: 'GET', headers: { authorization: `Bearer ${KEY}` } })
      .reply(200, { data: { ok: true } }, { headers: { 'x-request-id': 'req-mock' } });
    const venue = new MatchVenue({ apiKey: KEY, baseUrl: 'http://127.0.0.1:9', dispatcher: agent });
    const { data, response } = await get(venue).withResponse();
    expect(data).toEqual({ ok: true });
    expect(response.requestId).toBe('req-mock');
    agent.assertNoPendingInterceptors();
    await agent.close();
  });

  it('uses a fetch function when given one', async () => {
    server.script(json(200, { data: { ok: true } }));
    const calls: string[] = [];
    const venue = new MatchVenue({
      apiKey: KEY,
      baseUrl: server.url,
      fetch: (input, init) => {
        calls.push(`${init.method} ${input}`);
        return fetch(input, init);
      },
    });
    await expect(get(venue)).resolves.toEqual({ ok: true });
    expect(calls).toEqual([`GET ${server.url}/v1/thing`]);
  });
});
