import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { inspect } from 'node:util';
import { MatchVenue } from 'match-venue';
import { SEEDED } from 'match-venue/simulator';
import { afterEach, describe, expect, it } from 'vitest';
import { startVenue, until, type Venue } from './helpers.js';

let venue: Venue | undefined;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  await venue?.close();
  venue = undefined;
});

/** Takes WebSocket upgrades and never answers them: the client's handshake stays in flight. */
async function silentUpgrades(): Promise<{ wsUrl: string; protocols: string[] }> {
  const held: Duplex[] = [];
  const protocols: string[] = [];
  const server = createServer();
  server.on('upgrade', (req, socket) => {
    held.push(socket);
    protocols.push(String(req.headers['sec-websocket-protocol']));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(async () => {
    for (const s of held) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const { port } = server.address() as AddressInfo;
  return { wsUrl: `ws://127.0.0.1:${port}`, protocols };
}

describe('the ticket stays out of inspection and serialization', () => {
  it('util.inspect (any depth, hidden fields, without custom inspectors) and JSON.stringify of a stream mid-handshake', async () => {
    venue = await startVenue();
    const upgrades = await silentUpgrades();
    const client = new MatchVenue({
      apiKey: SEEDED.burner.apiKey,
      baseUrl: venue.url,
      wsUrl: upgrades.wsUrl,
    });
    const stream = client.stream.connect({ connectTimeoutMs: 60_000 });
    cleanups.push(() => stream.close());
    const account = stream.account();
    await until(() => upgrades.protocols.length === 1, 'the upgrade request');
    const ticket = /ticket\.([^,\s]+)/.exec(upgrades.protocols[0] ?? '')?.[1] ?? '';
    expect(ticket.split('.')).toHaveLength(3);

    expect(inspect(stream, { depth: Infinity, showHidden: true })).not.toContain(ticket);
    expect(inspect(stream, { depth: Infinity, showHidden: true, customInspect: false })).not.toContain(
      ticket,
    );
    expect(inspect(account, { depth: Infinity, showHidden: true, customInspect: false })).not.toContain(
      ticket,
    );
    expect(inspect(client, { depth: Infinity, showHidden: true })).not.toContain(ticket);
    const json = JSON.stringify(stream);
    expect(json).not.toContain(ticket);
    expect(JSON.parse(json)).toEqual({
      state: 'connecting',
      reconnects: 0,
      duplicatesDropped: 0,
      resyncs: 0,
      backlog: 0,
      channels: ['account'],
    });
  });
});
