import { createSimulator, type Simulator, SEEDED } from 'match-venue/simulator';
import { afterEach, describe, expect, it } from 'vitest';

// Issue 33: every snapshot the simulator makes restores over HTTP (a restore limit sized for
// snapshots, counted as the body arrives), and a snapshot over HTTP without the control token
// withholds the API keys `/_sim/state` withholds, yet restores to a working simulator.

const START = '2026-01-01T00:00:00Z';
const MiB = 1_048_576;
const TOKEN = 'restore-test-control-token-0123';
const opened: Simulator[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

function simulator(options: Parameters<typeof createSimulator>[0] = {}): Simulator {
  const sim = createSimulator({ clock: 'manual', startTime: START, ...options });
  opened.push(sim);
  return sim;
}

const post = (url: string, path: string, body?: string, headers: Record<string, string> = {}) =>
  fetch(`${url}${path}`, {
    method: 'POST',
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body }),
  });

type Entities = { engine: { state: { entities: { id: string; name: string; apiKey: string | null }[] } } };

describe('snapshots over HTTP', () => {
  it('a busy market after 12 auctions: POST /_sim/snapshot, then /_sim/restore of its text, round trips', async () => {
    const sim = simulator({ market: 'busy' });
    for (let i = 0; i < 12; i++) sim.clearAuction();
    const before = JSON.stringify(sim.snapshot());
    const { url } = await sim.listen();
    const taken = await post(url, '/_sim/snapshot');
    expect(taken.status).toBe(200);
    const text = await taken.text();
    // Far past the 1 MiB every other body is held to.
    expect(Buffer.byteLength(text)).toBeGreaterThan(MiB);
    sim.clearAuction();
    const restored = await post(url, '/_sim/restore', text);
    expect(restored.status).toBe(200);
    expect(
      ((await restored.json()) as { data: { auction: { auctionId: number } } }).data.auction.auctionId,
    ).toBe(13);
    // The keys the HTTP document withheld are this simulator's own again: the state is the one taken.
    expect(JSON.stringify(sim.snapshot())).toBe(before);
  });

  it('a restore body past restoreLimitBytes is 413 naming the limit; other routes keep 1 MiB', async () => {
    const sim = simulator({ restoreLimitBytes: 2 * MiB });
    const { url } = await sim.listen();
    const big = JSON.stringify({ format: 'match-venue-sim-snapshot', pad: 'x'.repeat(2 * MiB) });
    const refused = await post(url, '/_sim/restore', big);
    expect(refused.status).toBe(413);
    expect(((await refused.json()) as { message: string }).message).toBe(
      `Request body larger than ${2 * MiB} bytes`,
    );
    // 1.5 MiB is within the restore limit (read, then refused as a document), not on another route.
    const middling = JSON.stringify({ format: 'other', pad: 'x'.repeat(1.5 * MiB) });
    const read = await post(url, '/_sim/restore', middling);
    expect(read.status).toBe(400);
    expect(((await read.json()) as { errors: { location: string }[] }).errors[0]?.location).toBe('format');
    expect((await post(url, '/_sim/faults', middling)).status).toBe(413);
  });

  it('with a control token set, the larger limit is only for a caller that sends it', async () => {
    const sim = simulator();
    const { url } = await sim.listen({ controlToken: TOKEN });
    const middling = JSON.stringify({ format: 'other', pad: 'x'.repeat(1.5 * MiB) });
    // Without the token the caller is refused before its body is read at all (method and access
    // come before the body), so no large body is ever held for it.
    const refused = await post(url, '/_sim/restore', middling);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { message: string }).message).toMatch(/x-sim-control-token/);
    const read = await post(url, '/_sim/restore', middling, { 'x-sim-control-token': TOKEN });
    expect(read.status).toBe(400);
  });

  it('reads up to 2^29 - 24 bytes by default; refuses a restoreLimitBytes outside 1 MiB to that, naming it', () => {
    expect(simulator().restoreLimitBytes).toBe(2 ** 29 - 24);
    for (const bad of [1000, 2 ** 29, 1.5 * MiB + 0.5])
      expect(() => createSimulator({ restoreLimitBytes: bad })).toThrow(
        /^restoreLimitBytes must be an integer from 1048576/,
      );
  });
});

describe('API keys in snapshots', () => {
  const MARKET = { preset: 'calm', noise: { count: 3 }, liquidity: { count: 1 } } as const;
  const participant = (doc: Entities) => doc.engine.state.entities.find((e) => e.name === 'noise-0001');
  const account = (sim: Simulator, apiKey: string) =>
    sim.handle(
      new Request('http://sim.test/v1/match/account', { headers: { authorization: `Bearer ${apiKey}` } }),
    );

  it('without the control token unpublished keys are null; with it, and in process, every key is there', async () => {
    const open = simulator({ market: MARKET });
    const served = await open.listen();
    const doc = (await (await post(served.url, '/_sim/snapshot')).json()) as Entities;
    expect(participant(doc)?.apiKey).toBeNull();
    // The published seeded keys stay, as in /_sim/state.
    const burner = doc.engine.state.entities.find((e) => e.id === SEEDED.burner.entityId);
    expect(burner?.apiKey).toBe(SEEDED.burner.apiKey);
    expect(participant(open.snapshot() as unknown as Entities)?.apiKey).toBe('TEST_API_KEY:noise-0001:sim');

    const guarded = simulator({ market: MARKET });
    const { url } = await guarded.listen({ controlToken: TOKEN });
    const full = await post(url, '/_sim/snapshot', undefined, { 'x-sim-control-token': TOKEN });
    expect(participant((await full.json()) as Entities)?.apiKey).toBe('TEST_API_KEY:noise-0001:sim');
  });

  it('a key-less document restores: the same simulator keeps its keys, another gives fresh working ones', async () => {
    const sim = simulator({ market: MARKET });
    const { url } = await sim.listen();
    const text = await (await post(url, '/_sim/snapshot')).text();
    const doc = JSON.parse(text) as Entities;
    expect(doc.engine.state.entities.filter((e) => e.apiKey === null)).toHaveLength(4);
    expect((await post(url, '/_sim/restore', text)).status).toBe(200);
    expect((await account(sim, 'TEST_API_KEY:noise-0001:sim')).status).toBe(200);

    // A simulator without these entities: each gets a new key, distinct, working, shown with the token.
    const other = simulator();
    other.restore(doc);
    const keys = other.getState().entities.map((e) => e.apiKey);
    expect(new Set(keys).size).toBe(keys.length);
    const fresh = other.getState().entities.find((e) => e.name === 'noise-0001')?.apiKey as string;
    expect(fresh).toMatch(/^TEST_API_KEY:noise-0001:[0-9a-f]{32}$/);
    expect((await account(other, fresh)).status).toBe(200);
    expect((await account(other, 'TEST_API_KEY:noise-0001:sim')).status).toBe(401);
    // The market goes on trading with the restored participants.
    expect(other.clearAuction().orderCount).toBeGreaterThan(0);
  });
});
