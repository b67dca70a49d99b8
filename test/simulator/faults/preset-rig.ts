import { MatchVenue } from 'match-venue';
import { createSimulator, type Simulator, SEEDED } from 'match-venue/simulator';
import { expect, onTestFinished } from 'vitest';
import { WebSocket } from 'ws';
import { SUBPROTOCOL, TICKET_PROTOCOL_PREFIX } from '../../../src/contract/ws-protocol.js';
import type { PresetName } from '../../../src/simulator/engine/fault-presets.js';
import type { RequestLogEntry } from '../../../src/simulator/http/request-log.js';
import type { AccountMirror } from '../../../src/state/index.js';
import type { VenueStream } from '../../../src/stream/index.js';
import { auth, type SeededName } from '../../stream/helpers.js';

export { burnParams, mintParams } from '../../state/helpers.js';
export { auth, placeOrder } from '../../stream/helpers.js';
export { until } from '../../stream/socket-server.js';

/** A manual-clock simulator under `presets`, listening, with its request log (upgrades included). */
export interface PresetRig {
  sim: Simulator;
  url: string;
  wsUrl: string;
  /** Every request answered over the port, WebSocket upgrades with their status. */
  requests: RequestLogEntry[];
  /** The statuses of the WebSocket upgrades answered, in order. */
  upgrades(): Array<number | null>;
  close(): Promise<void>;
}

export async function startRig(presets: PresetName[], seed = 1): Promise<PresetRig> {
  const sim = createSimulator({ clock: 'manual', seed, faults: { presets } });
  const requests: RequestLogEntry[] = [];
  const running = await sim.listen({ onRequest: (entry) => requests.push(entry) });
  let closed: Promise<void> | undefined;
  const rig: PresetRig = {
    sim,
    url: running.url,
    wsUrl: running.wsUrl,
    requests,
    upgrades: () => requests.filter((r) => r.kind === 'websocket').map((r) => r.status),
    close: () => {
      closed ??= running.close().then(() => sim.close());
      return closed;
    },
  };
  // Closed after the test whatever it did (a test may close it sooner: closing is once).
  onTestFinished(() => rig.close());
  return rig;
}

/** An SDK client of a seeded entity on the rig; its stream reconnects quickly (real ms). */
export function clientOf(rig: PresetRig, name: SeededName): MatchVenue {
  return new MatchVenue({ apiKey: SEEDED[name].apiKey, baseUrl: rig.url, wsUrl: rig.wsUrl, maxRetries: 0 });
}

/** A mirror on a stream of its own (its counters read by the test) that reconnects within ms. */
export async function mirrorOf(venue: MatchVenue): Promise<{ mirror: AccountMirror; stream: VenueStream }> {
  const stream = venue.stream.connect({ reconnect: { initialDelayMs: 5, maxDelayMs: 20 } });
  const mirror = venue.account.mirror({ stream });
  // Registered after the rig's, so run before it: the mirror and its stream end, then the server.
  onTestFinished(async () => {
    await mirror.close();
    await stream.close();
  });
  await mirror.ready;
  return { mirror, stream };
}

/**
 * The mirror is exact: each order it holds, and each of `ids`, is the order REST answers now, and
 * its summary is the summary REST answers (every amount an exact decimal string).
 */
export async function expectExact(venue: MatchVenue, mirror: AccountMirror, ids: string[]): Promise<void> {
  const held = mirror.orders().map((o) => o.orderId);
  for (const id of new Set([...held, ...ids])) {
    expect(mirror.order(id), `order ${id}`).toEqual(await venue.orders.retrieve(id));
  }
  expect(mirror.summary).toEqual(await venue.account.retrieve());
}

/**
 * `orders.waitForOutcome(orderId, { stream: mirror })` (or an `outcome` wait already started)
 * answers the filled order REST holds, and the mirror is exact over `ids`, to which it is added.
 */
export async function expectFilled(
  venue: MatchVenue,
  mirror: AccountMirror,
  ids: string[],
  outcome: string | Promise<Awaited<ReturnType<MatchVenue['orders']['waitForOutcome']>>>,
): Promise<void> {
  const order = await (typeof outcome === 'string'
    ? venue.orders.waitForOutcome(outcome, { stream: mirror, pollIntervalMs: 5 })
    : outcome);
  expect(order.status).toBe('filled');
  expect(order).toEqual(await venue.orders.retrieve(order.orderId));
  ids.push(order.orderId);
  await expectExact(venue, mirror, ids);
}

/** A ticket's upgrade answered: the socket open, or the refusal's status and body. */
export type Upgrade = { ws: WebSocket } | { status: number; body: string };

export async function issueTicket(url: string, name: SeededName): Promise<string> {
  const res = await fetch(`${url}/v1/match/ws/ticket`, { method: 'POST', headers: auth(name) });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { ticket: string } }).data.ticket;
}

export function upgrade(wsUrl: string, ticket: string): Promise<Upgrade> {
  const ws = new WebSocket(`${wsUrl}/v1/match/ws`, [SUBPROTOCOL, `${TICKET_PROTOCOL_PREFIX}${ticket}`]);
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve({ ws }));
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    ws.once('error', (err) => reject(err));
  });
}

/** A raw account subscriber: every frame it reads, and its close code once closed. */
export interface RawAccount {
  ws: WebSocket;
  frames: Array<{ type: string; seq?: number; event?: string; data?: Record<string, unknown> }>;
  /** Resolves with the first frame `match` accepts (already read or yet to come). */
  next(match: (f: RawAccount['frames'][number]) => boolean): Promise<RawAccount['frames'][number]>;
  closed: Promise<number>;
}

export async function subscribeAccount(rig: PresetRig, name: SeededName): Promise<RawAccount> {
  const up = await upgrade(rig.wsUrl, await issueTicket(rig.url, name));
  if (!('ws' in up)) throw new Error(`upgrade refused ${up.status} ${up.body}`);
  const { ws } = up;
  const frames: RawAccount['frames'] = [];
  const waiters: Array<() => void> = [];
  ws.on('message', (data: Buffer) => {
    frames.push(JSON.parse(data.toString()));
    for (const w of waiters.splice(0)) w();
  });
  const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
  const raw: RawAccount = {
    ws,
    frames,
    closed,
    next: (match) =>
      new Promise((resolve) => {
        const look = () => {
          const found = frames.find(match);
          if (found) resolve(found);
          else waiters.push(look);
        };
        look();
      }),
  };
  ws.send(JSON.stringify({ op: 'subscribe', channel: 'account', id: 1 }));
  await raw.next((f) => f.type === 'subscribed');
  return raw;
}
