/**
 * Issue 33 (3, 6): many dashboards cannot starve the simulator. `/_sim/ui/events` streams to at
 * most `uiClients` pages (the next gets a documented 503), each batch is serialised once for all of
 * them, and a `/_sim/ui/` path naming an inherited property (`constructor`, `__proto__`) is a 404.
 * The slow-page drop is dashboard-slow-client.test.ts.
 */
import { connect, type Socket } from 'node:net';
import { createSimulator, SEEDED, type Simulator } from 'match-venue/simulator';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseCliArgs, UsageError } from '../../../src/simulator/cli/args.js';

const sims: Simulator[] = [];
const readers: ReadableStreamDefaultReader<Uint8Array>[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(readers.splice(0).map((r) => r.cancel()));
  await Promise.all(sims.splice(0).map((s) => s.close()));
});

async function start(options: Parameters<Simulator['listen']>[0] = {}, errors: unknown[] = []) {
  const sim = createSimulator({
    clock: 'manual',
    logger: { info: () => undefined, error: (...args: unknown[]) => errors.push(args) },
  });
  sims.push(sim);
  return { sim, running: await sim.listen({ port: 0, ui: true, ...options }) };
}

/** An open event stream, read as text: `until(s)` reads on until the text holds `s`. */
async function openStream(url: string) {
  const res = await fetch(`${url}/_sim/ui/events`);
  expect(res.status).toBe(200);
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  readers.push(reader);
  const decoder = new TextDecoder();
  const stream = {
    text: '',
    async until(s: string): Promise<void> {
      while (!stream.text.includes(s)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`the stream ended before ${s}`);
        stream.text += decoder.decode(value, { stream: true });
      }
    },
  };
  await stream.until('event: hello');
  return stream;
}

describe('the dashboard client cap', () => {
  it('answers a stream past uiClients 503 {code: -1, message} naming --ui-clients; the open ones go on', async () => {
    const { running } = await start({ uiClients: 2 });
    await openStream(running.url);
    const second = await openStream(running.url);
    const refused = await fetch(`${running.url}/_sim/ui/events`);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('content-type')).toContain('application/json');
    expect(refused.headers.get('retry-after')).toBe('5');
    const body = (await refused.json()) as { code: number; message: string };
    expect(body.code).toBe(-1);
    expect(body.message).toContain('2 clients');
    expect(body.message).toContain('--ui-clients');
    expect(body.message).toContain('uiClients');
    // The cap is on streams only: the page's files are still served.
    expect((await fetch(`${running.url}/_sim/ui/live.js`)).status).toBe(200);
    expect(second.text).toContain('event: hello');
  });

  it('answers HEAD /_sim/ui/events at once: its connection serves the next request, and it takes no place', async () => {
    const { running } = await start({ uiClients: 1 });
    const { port } = new URL(running.url);
    const socket = connect(Number(port), '127.0.0.1');
    let text = '';
    // Pipelined on one connection: the GET is answered only once the HEAD's answer has ended.
    socket.write(
      'HEAD /_sim/ui/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n' +
        'GET /_sim/ui/live.js HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n',
    );
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
    });
    await new Promise((resolve) => socket.once('close', resolve));
    const heads = text.split('\r\n\r\n')[0] ?? '';
    expect(heads).toMatch(/^HTTP\/1\.1 200 /);
    expect(heads.toLowerCase()).toContain('content-type: text/event-stream');
    expect(text).toMatch(/\r\n\r\nHTTP\/1\.1 200 [\s\S]*content-type: text\/javascript/i);
    const page = await openStream(running.url);
    expect(page.text).toContain('event: hello');
  });

  it('refuses a uiClients or uiMaxBufferedBytes that is not an integer >= 1, naming it', async () => {
    const sim = createSimulator({ clock: 'manual' });
    sims.push(sim);
    await expect(sim.listen({ port: 0, ui: true, uiClients: 0 })).rejects.toThrow(
      /^uiClients must be an integer >= 1$/,
    );
    await expect(sim.listen({ port: 0, ui: true, uiMaxBufferedBytes: 1.5 })).rejects.toThrow(
      /^uiMaxBufferedBytes must be an integer >= 1$/,
    );
  });

  it('takes --ui-clients on the command line (an integer >= 1)', () => {
    expect(parseCliArgs(['--ui-clients', '3']).uiClients).toBe(3);
    expect(parseCliArgs([]).uiClients).toBeUndefined();
    expect(() => parseCliArgs(['--ui-clients', '0'])).toThrow(UsageError);
    expect(() => parseCliArgs(['--ui-clients', '0'])).toThrow('--ui-clients must be an integer >= 1');
  });
});

describe('the dashboard stream fan-out', () => {
  it('serialises each batch once, however many pages read it, and sends them all the same batch', async () => {
    const { sim, running } = await start();
    const pages = [
      await openStream(running.url),
      await openStream(running.url),
      await openStream(running.url),
    ];
    const stringify = vi.spyOn(JSON, 'stringify');
    const res = await sim.handle(
      new Request('http://sim/v1/match/orders', {
        method: 'POST',
        headers: { authorization: `Bearer ${SEEDED.burner.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          idempotencyKey: crypto.randomUUID(),
          postFillAction: 'cancel',
          orderType: 'BURN',
          amount: { amount: '100.00', currency: 'USD' },
          sourceWalletId: SEEDED.burner.walletId,
          fiatAccountId: SEEDED.burner.fiatAccountId,
        }),
      }),
    );
    expect(res.status).toBe(202);
    const { orderId } = ((await res.json()) as { data: { orderId: string } }).data;
    for (const page of pages) await page.until(orderId);
    // The batch payloads serialised since the order was placed: one per batch, never one per page.
    const batches = stringify.mock.calls
      .map((call, i) => ({ value: call[0], result: stringify.mock.results[i]?.value as string }))
      .filter(({ value }) => typeof value === 'object' && value !== null && 'events' in value)
      .map(({ result }) => result);
    expect(batches.length).toBeGreaterThanOrEqual(1);
    expect(new Set(batches).size).toBe(batches.length);
    const withOrder = batches.filter((b) => b.includes(orderId));
    expect(withOrder).toHaveLength(1);
    for (const page of pages) expect(page.text).toContain(`event: batch\ndata: ${withOrder[0]}\n\n`);
  });
});

describe('the dashboard stream fan-out to many pages', () => {
  it('reaches every page past the 25 written per turn, batches in order', async () => {
    const { sim, running } = await start();
    const port = Number(new URL(running.url).port);
    const pages = await Promise.all(
      Array.from(
        { length: 60 },
        () =>
          new Promise<{ text: string; socket: Socket }>((resolve) => {
            const page = { text: '', socket: connect(port, '127.0.0.1') };
            page.socket.write('GET /_sim/ui/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
            page.socket.on('data', (chunk: Buffer) => {
              page.text += chunk.toString('utf8');
              if (page.text.includes('event: hello')) resolve(page);
            });
          }),
      ),
    );
    const sockets = pages.map((p) => p.socket);
    const seen = (s: string) =>
      Promise.all(
        pages.map(
          (p) =>
            new Promise<void>((resolve) => {
              const check = () => {
                if (!p.text.includes(s)) return;
                p.socket.off('data', check);
                resolve();
              };
              p.socket.on('data', check);
              check();
            }),
        ),
      );
    try {
      sim.setPhase('lock');
      await seen('"event":"auction.locked"');
      sim.setPhase('open');
      await seen('"phase":"open"');
      for (const p of pages)
        expect(p.text.indexOf('auction.locked')).toBeLessThan(p.text.lastIndexOf('"phase":"open"'));
    } finally {
      for (const s of sockets) s.destroy();
    }
  });
});

describe('dashboard paths naming inherited properties', () => {
  it('answers 404 {code: -1, message} and logs nothing, under /_sim/ui/ and at the top', async () => {
    const errors: unknown[] = [];
    const { running } = await start({}, errors);
    for (const path of [
      '/_sim/ui/constructor',
      '/_sim/ui/__proto__',
      '/_sim/ui/toString',
      '/_sim/ui/hasOwnProperty',
      '/__proto__',
      '/toString',
      '/constructor',
    ]) {
      const res = await fetch(`${running.url}${path}`);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type'), path).toContain('application/json');
      const body = (await res.json()) as { code: number; message: string };
      expect(body.code, path).toBe(-1);
      expect(body.message, path).toContain(path);
    }
    expect(errors).toEqual([]);
  });
});
