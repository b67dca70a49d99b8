import { describe, expect, it } from 'vitest';
import { SUBPROTOCOL } from '../../src/contract/ws-protocol.js';
import { until } from './socket-server.js';
import { cleanups, fakeVenue, useCleanups } from './flow-servers.js';

useCleanups();

describe('server memory per socket', () => {
  it('drops a socket that stopped reading once its unsent data passes maxBufferedBytes', async () => {
    const { WebSocket } = await import('ws');
    const { sim, server } = await fakeVenue({ maxBufferedBytes: 256 * 1024 });
    const { ticket } = await sim.tickets.issue('entity-a');
    const ws = new WebSocket(`${server.wsUrl}/v1/match/ws`, [SUBPROTOCOL, `ticket.${ticket}`]);
    cleanups.push(async () => ws.terminate());
    await new Promise((resolve) => ws.once('open', resolve));
    ws.send(JSON.stringify({ op: 'subscribe', channel: 'market', id: 1 }));
    await until(() => server.handle.stats().market === 1, 'the subscription');
    ws.pause();
    const closed = new Promise((resolve) => ws.once('close', resolve));
    // 32 MiB: more than loopback's kernel buffers can hide.
    const pad = 'x'.repeat(1024);
    for (let i = 0; i < 32 * 1024 && server.handle.stats().connections > 0; i++)
      sim.emit({ channel: 'market', event: 'auction.opened', data: { i, pad } });
    expect(server.handle.stats()).toEqual({ connections: 0, market: 0, account: 0 });
    ws.resume();
    await closed;
  });
});

describe('server heartbeat', () => {
  it('terminates a socket that stops answering WebSocket pings', async () => {
    const { WebSocket } = await import('ws');
    const { sim, server } = await fakeVenue({ heartbeatIntervalMs: 5 });
    const { ticket } = await sim.tickets.issue('entity-a');
    const ws = new WebSocket(`${server.wsUrl}/v1/match/ws`, [SUBPROTOCOL, `ticket.${ticket}`], {
      autoPong: false,
    });
    cleanups.push(async () => ws.terminate());
    // Listen before 'open' resolves: at a 5 ms heartbeat the first ping can arrive in that gap.
    let pings = 0;
    ws.on('ping', () => {
      pings += 1;
    });
    const closed = new Promise<number>((resolve) => ws.once('close', resolve));
    await new Promise((resolve) => ws.once('open', resolve));
    const code = await closed;
    expect(code).toBe(1006);
    expect(pings).toBeGreaterThanOrEqual(1);
  });
});
