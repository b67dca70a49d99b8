import { once } from 'node:events';
import { type CassetteJson, cassetteHeader } from '../../../src/contract/cassette.js';
import { redactForCassette } from '../../../src/contract/cassette-redact.js';
import { SUBPROTOCOL, TICKET_PROTOCOL_PREFIX } from '../../../src/contract/ws-protocol.js';
import { isEvent as isStreamEvent } from 'match-venue';
import { createSimulator, SEEDED, type Simulator } from 'match-venue/simulator';
import { WebSocket } from 'ws';

// A cassette recorded the long way: a short bot session (REST and a stream subscription) against a
// simulator on a manual clock, each exchange and frame written as a line of the contract's shape
// (src/contract/cassette.ts), redacted as the recorder redacts. The probe tests replay it.

export const SESSION_START = '2026-01-01T00:00:00.000Z';
const BURN_ID = '00000000-0000-4000-8000-00000000b001';
const MINT_ID = '00000000-0000-4000-8000-00000000a001';
const EUR_ID = '00000000-0000-4000-8000-00000000e001';

class Recorder {
  readonly lines: object[] = [cassetteHeader('match-venue-node/test', new Date(SESSION_START))];
  private socket: WebSocket | undefined;
  private readonly pongs = new Map<string, () => void>();
  private pings = 0;

  constructor(readonly sim: Simulator) {}

  private at(): string {
    return new Date(this.sim.now()).toISOString();
  }

  async http(name: 'burner' | 'minter', method: string, target: string, body: CassetteJson = null) {
    const url = new URL(target, 'http://sim.test');
    const at = this.at();
    const res = await this.sim.handle(
      new Request(url, {
        method,
        headers: {
          authorization: `Bearer ${SEEDED[name].apiKey}`,
          ...(body === null ? {} : { 'content-type': 'application/json' }),
        },
        body: body === null ? null : JSON.stringify(body),
      }),
    );
    const text = await res.text();
    const parsed = text === '' ? null : (JSON.parse(text) as CassetteJson);
    this.lines.push({
      kind: 'http',
      at,
      durationMs: 1,
      keyId: name,
      attempt: 1,
      request: { method, path: url.pathname, query: Object.fromEntries(url.searchParams), body },
      response: { status: res.status, body: redactForCassette(parsed, [SEEDED[name].apiKey]) },
    });
    return parsed as { data?: Record<string, CassetteJson> };
  }

  async open(url: string, name: 'burner'): Promise<void> {
    const answer = await this.http(name, 'POST', '/v1/match/ws/ticket');
    const ticket = String(answer.data?.ticket);
    const socket = new WebSocket(url, [SUBPROTOCOL, `${TICKET_PROTOCOL_PREFIX}${ticket}`]);
    const hello = new Promise<void>((resolve) => {
      socket.on('message', (data) => {
        const frame = JSON.parse(String(data)) as Record<string, CassetteJson>;
        this.ws(name, 'receive', { frame });
        if (frame.type === 'hello') resolve();
        if (frame.type === 'pong') this.pongs.get(String(frame.id))?.();
      });
    });
    // Written from the 'open' listener itself: the hello may follow in the same tick.
    socket.once('open', () => this.ws(name, 'open', { url, protocol: socket.protocol }));
    await once(socket, 'open');
    this.socket = socket;
    await hello;
  }

  private ws(name: string, event: string, extra: object): void {
    this.lines.push({ kind: 'ws', at: this.at(), connection: 1, keyId: name, event, ...extra });
  }

  /** Sends a frame, then a ping: once its pong is in, everything the frame caused has been recorded. */
  async send(frame: CassetteJson): Promise<void> {
    this.ws('burner', 'send', { frame });
    this.socket?.send(JSON.stringify(frame));
    await this.barrier();
  }

  async barrier(): Promise<void> {
    const id = `rec-${++this.pings}`;
    const pong = new Promise<void>((resolve) => this.pongs.set(id, resolve));
    this.ws('burner', 'send', { frame: { op: 'ping', id } });
    this.socket?.send(JSON.stringify({ op: 'ping', id }));
    await pong;
  }

  async close(): Promise<void> {
    const socket = this.socket;
    if (!socket) return;
    const closed = once(socket, 'close');
    socket.close(1000);
    await closed;
    this.ws('burner', 'close', { code: 1000 });
  }

  text(): string {
    return this.lines.map((line) => `${JSON.stringify(line)}\n`).join('');
  }
}

const burn = (extra: object = {}) => ({
  idempotencyKey: BURN_ID,
  orderType: 'BURN',
  amount: { amount: '1000.00', currency: 'USD' },
  feeBps: '5',
  postFillAction: 'cancel',
  sourceWalletId: SEEDED.burner.walletId,
  fiatAccountId: SEEDED.burner.fiatAccountId,
  ...extra,
});

/**
 * The session: the account, a stream (market and account), a BURN and a MINT that match, a BURN
 * from the EUR wallet (refused, 137002), the order read before and after its auction clears, the
 * order list; the clock moved as a bot's day would move it. Returns the cassette text.
 */
export async function recordSession(): Promise<string> {
  const sim = createSimulator({ clock: 'manual', startTime: SESSION_START });
  const { wsUrl } = await sim.listen({ port: 0 });
  const rec = new Recorder(sim);
  try {
    sim.advance(100);
    await rec.http('burner', 'GET', '/v1/match/account');
    sim.advance(100);
    await rec.open(`${wsUrl}/v1/match/ws`, 'burner');
    await rec.send({ op: 'subscribe', channel: 'market', id: 1 });
    await rec.send({ op: 'subscribe', channel: 'account', id: 2 });
    sim.advance(800);
    await rec.http('burner', 'POST', '/v1/match/orders', burn());
    await rec.barrier();
    sim.advance(500);
    await rec.http('minter', 'POST', '/v1/match/orders', {
      idempotencyKey: MINT_ID,
      orderType: 'MINT',
      amount: { amount: '1000.00', currency: 'USD' },
      feeBps: '2',
      postFillAction: 'cancel',
    });
    sim.advance(500);
    await rec.http(
      'burner',
      'POST',
      '/v1/match/orders',
      burn({ idempotencyKey: EUR_ID, sourceWalletId: SEEDED.burner.eurWalletId }),
    );
    sim.advance(500);
    // The auction id as the placement's answer gave it: a probe maps it to its own.
    await rec.http('burner', 'POST', '/v1/match/orders/modify', {
      auctionId: 1,
      orderId: BURN_ID,
      feeBps: '4',
    });
    sim.advance(500);
    await rec.http('burner', 'GET', `/v1/match/orders/${BURN_ID}`);
    // Past the lock (8 s), the clear (10 s) and the settlement (11 s).
    sim.advance(8_500);
    await rec.barrier();
    await rec.http('burner', 'GET', `/v1/match/orders/${BURN_ID}`);
    sim.advance(500);
    await rec.http('burner', 'GET', '/v1/match/orders?pageSize=10');
    await rec.barrier();
    sim.advance(500);
    await rec.close();
    return rec.text();
  } finally {
    await sim.close();
  }
}

/** The next event of `events` that is `name`, the ones before it passed over (an SDK stream). */
export async function nextEvent(events: AsyncIterator<unknown>, name: string): Promise<unknown> {
  for (;;) {
    const { value, done } = await events.next();
    if (done) throw new Error(`the stream ended before ${name}`);
    if (isStreamEvent(value as Parameters<typeof isStreamEvent>[0], name as 'order.accepted')) return value;
  }
}
