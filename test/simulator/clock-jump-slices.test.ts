import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ClockJumpInProgressError,
  ClockJumpTooLargeError,
  createSimulator,
  JUMP_ORDER_LIMIT,
  type JumpView,
  type Simulator,
  type SimulatorOptions,
} from 'match-venue/simulator';
import { afterAll, describe, expect, it } from 'vitest';
import { dataOf, expectError, type Reply, UncheckedDriver } from './helpers.js';

// Issue 33, point 4: a long clock jump with the background market runs in slices (other requests
// answered meanwhile, its progress in /_sim/state), exactly as one step would, with memory bounded.
const T0 = '2026-01-01T00:00:00.000Z';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const dir = mkdtempSync(join(tmpdir(), 'match-venue-jump-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function driver(options: SimulatorOptions): UncheckedDriver {
  return new UncheckedDriver(createSimulator({ clock: 'manual', startTime: T0, ...options }));
}

/** Calls `start` once, from inside the jump, at its first clear (what it sends runs when the jump yields). */
function atFirstClear<T>(sim: Simulator, start: () => Promise<T>): () => Promise<T> {
  let started: Promise<T> | undefined;
  const off = sim.onEvent((e) => {
    if (started || e.channel !== 'market' || e.event !== 'auction.cleared') return;
    started = start();
  });
  return () => {
    off();
    if (!started) throw new Error('the jump cleared no auction');
    return started;
  };
}

interface StateWithJump {
  jump: JumpView | null;
  auction: { auctionId: number };
}

describe('a clock jump with the market on runs in slices', () => {
  it('answers a GET while a long advance runs, shows the jump in /_sim/state, and refuses control actions 409', async () => {
    const d = driver({ market: 'calm', seed: 3 });
    expect((await d.call('POST', '/_sim/clock/advance', null, { ms: 0 })).status).toBe(200);
    let advanceAnswered = false;
    const during = atFirstClear(d.sim, () =>
      Promise.all([
        d.call('GET', '/_sim/state', null).then((r) => {
          // In process, while the jump still runs: the same refusal, typed.
          let thrown: unknown;
          try {
            d.sim.advance(1_000);
          } catch (err) {
            thrown = err;
          }
          return { r, advanceAnswered, thrown };
        }),
        d.call('POST', '/_sim/clock/advance', null, { ms: 1_000 }),
        d.call('POST', '/_sim/reset', null),
        d.call('POST', '/_sim/auctions/clear', null),
      ]),
    );
    const advance = await d.call('POST', '/_sim/clock/advance', null, { ms: 2 * HOUR }).then((r) => {
      advanceAnswered = true;
      return r;
    });
    const [state, second, reset, clear] = await during();

    // The GET was answered before the advance was, with the jump part way.
    expect(state.advanceAnswered).toBe(false);
    expect(state.r.status).toBe(200);
    const mid = dataOf(state.r) as StateWithJump;
    expect(mid.jump).toMatchObject({ from: T0, to: '2026-01-01T02:00:00.000Z', auctionsTotal: 720 });
    const jump = mid.jump as JumpView;
    expect(jump.auctionsDone).toBeGreaterThan(0);
    expect(jump.auctionsDone).toBeLessThan(720);
    expect(jump.now > T0 && jump.now < jump.to).toBe(true);
    // At the instant the jump reached: the auction open then.
    expect(mid.auction.auctionId).toBe(1 + jump.auctionsDone);

    expect(state.thrown).toBeInstanceOf(ClockJumpInProgressError);
    expect((state.thrown as Error).message).toMatch(
      /^a clock jump is in progress \(to 2026-01-01T02:00:00\.000Z/,
    );
    for (const refused of [second, reset, clear]) {
      expectError(refused, 409, -1);
      expect((refused.body as { message: string }).message).toMatch(
        /^a clock jump is in progress \(to 2026-01-01T02:00:00\.000Z, now at 2026-01-01T0[01]:[\d:.]+Z\); wait for its answer$/,
      );
    }
    expect(advance.status).toBe(200);
    expect(dataOf(advance)).toEqual({ now: '2026-01-01T02:00:00.000Z' });
    const after = dataOf(await d.call('GET', '/_sim/state', null)) as StateWithJump;
    expect(after.jump).toBeNull();
    expect(after.auction.auctionId).toBe(721);
    // The refused actions changed nothing: the same state as a jump nobody disturbed.
    const calm = createSimulator({ clock: 'manual', startTime: T0, market: 'calm', seed: 3 });
    calm.advance(0);
    calm.advance(2 * HOUR);
    expect(d.sim.getState()).toEqual(calm.getState());
    await Promise.all([d.sim.close(), calm.close()]);
  });

  it('makes exactly the events and state of one step over the whole jump, requests in between or not', async () => {
    const options: SimulatorOptions = { market: 'busy', seed: 5, eventLog: 1_000_000 };
    const [sliced, oneStep, inProcess] = [driver(options), driver(options), driver(options)];
    for (const d of [sliced, oneStep, inProcess]) {
      d.sim.advance(0);
      d.sim.setFaults({ failSettlement: 0.05 });
      await d.burn('2500.00', { feeBps: '6', postFillAction: 'roll' });
    }
    const ms = 5 * MINUTE + 4_500;
    // Over HTTP, in slices, with reads sent from inside the jump answered between them.
    let advanceAnswered = false;
    const reads = atFirstClear(sliced.sim, () =>
      Promise.all([
        sliced.call('GET', '/_sim/state', null),
        sliced.call('GET', '/v1/match/orders?pageSize=5', 'TEST_API_KEY:burner:sim'),
        sliced.call('GET', '/_sim/log', null),
      ]).then((r) => ({ r, advanceAnswered })),
    );
    const answer = await sliced.call('POST', '/_sim/clock/advance', null, { ms });
    advanceAnswered = true;
    expect(answer.status).toBe(200);
    const read = await reads();
    expect(read.advanceAnswered).toBe(false);
    expect((dataOf(read.r[0] as Reply) as StateWithJump).jump).not.toBeNull();
    // The engine in one step over the whole jump (the simulator's clock is not moved: no control line).
    oneStep.sim.engine.advanceTo(Date.parse(T0) + ms);
    // In process, in parts without yielding.
    inProcess.sim.advance(ms);

    const log = async (d: UncheckedDriver) => (await d.call('GET', '/_sim/log', null)).text;
    const state = async (d: UncheckedDriver) => dataOf(await d.call('GET', '/_sim/state', null));
    const [slicedLog, oneStepLog, inProcessLog] = await Promise.all([
      log(sliced),
      log(oneStep),
      log(inProcess),
    ]);
    const events = (ndjson: string) => ndjson.split('\n').filter((l) => !l.includes('"type":"control"'));
    expect(events(slicedLog).length).toBeGreaterThan(10_000);
    expect(events(slicedLog)).toEqual(events(oneStepLog));
    expect(slicedLog).toBe(inProcessLog);
    const slicedState = await state(sliced);
    expect(slicedState).toEqual(await state(oneStep));
    expect(slicedState).toEqual(await state(inProcess));
    await Promise.all([sliced.sim.close(), oneStep.sim.close(), inProcess.sim.close()]);
  });
});

describe('a clock jump stopped part way', () => {
  it('by its signal, or by close(), leaves the clock where it got to and the books whole', async () => {
    const sim = createSimulator({ clock: 'manual', startTime: T0, market: 'calm', seed: 4 });
    sim.advance(0);
    const controller = new AbortController();
    const seen: JumpView[] = [];
    const stopped = await sim
      .advanceAsync(HOUR, {
        signal: controller.signal,
        onProgress: (p) => {
          seen.push(p);
          if (p.auctionsDone === 5) controller.abort(new Error('enough'));
        },
      })
      .then(
        () => 'finished',
        (err: Error) => err.message,
      );
    expect(stopped).toBe('enough');
    const state = sim.getState();
    expect(state.jump).toBeNull();
    // It stopped at a part's end after the fifth clear, short of the hour.
    expect(state.auction.auctionId).toBeGreaterThanOrEqual(6);
    expect(sim.now()).toBeLessThan(Date.parse(T0) + HOUR);
    expect(Date.parse(state.now)).toBe(sim.now());
    expect(seen.at(-1)?.auctionsTotal).toBe(360);
    expect(sim.checkInvariants()).toEqual([]);

    // A closing simulator stops a jump running; what it answers says so.
    const running = sim.advanceAsync(HOUR).then(
      () => 'finished',
      (err: Error) => err.message,
    );
    await sim.close();
    expect(await running).toBe('the simulator closed during the clock jump');
  });
});

describe('a clock jump keeps memory bounded', () => {
  // 2,000 traders asking for 1,000 orders an auction each (the cap is 50): about 100,000 orders an
  // auction on paper. Their balance is nothing, so each placement is refused and the run stays cheap.
  const crowd = {
    preset: 'calm',
    noise: { count: 2_000, activity: 1, ordersPerAuction: { min: 1_000, max: 1_000 } },
    balance: '0.00',
  } as const;

  it('without a store, refuses a jump that cannot fit: 400 code 2 naming ms, the limit and --store, nothing changed', async () => {
    const d = driver({ market: crowd, eventLog: true });
    expect((await d.call('POST', '/_sim/clock/advance', null, { ms: 0 })).status).toBe(200);
    const before = { state: d.sim.getState(), log: d.sim.eventLog()?.ndjson, now: d.sim.now() };

    const refused = await d.call('POST', '/_sim/clock/advance', null, { ms: 10 * MINUTE });
    expectError(refused, 400, 2);
    const body = refused.body as { message: string; errors: Array<{ location: string; message: string }> };
    expect(body.message).toMatch(/^Invalid request: ms would hold about [\d,]+ orders in memory \(0 now\)/);
    expect(body.message).toContain(
      `over the ${JUMP_ORDER_LIMIT.toLocaleString('en-US')} kept without a store`,
    );
    expect(body.message).toContain('--store <file>');
    expect(body.errors[0]).toMatchObject({
      location: 'ms',
      message: body.message.replace('Invalid request: ms ', ''),
    });
    expect({ state: d.sim.getState(), log: d.sim.eventLog()?.ndjson, now: d.sim.now() }).toEqual(before);

    // In process the same refusal, typed.
    let thrown: unknown;
    try {
      d.sim.advance(10 * MINUTE);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(ClockJumpTooLargeError);
    expect((thrown as Error).message).toBe(body.message);
    expect({ state: d.sim.getState(), log: d.sim.eventLog()?.ndjson, now: d.sim.now() }).toEqual(before);
    // A jump that fits still runs.
    expect((await d.call('POST', '/_sim/clock/advance', null, { ms: 10_000 })).status).toBe(200);
    await d.sim.close();
  });

  it('with a store, evicts as the jump proceeds: orders in memory stay within the retention window', async () => {
    const d = driver({ market: 'calm', seed: 9, store: { file: join(dir, 'jump.db'), retainMs: MINUTE } });
    expect((await d.call('POST', '/_sim/clock/advance', null, { ms: 0 })).status).toBe(200);
    const held: number[] = [];
    d.sim.onEvent((e) => {
      if (e.channel === 'market' && e.event === 'auction.opened') held.push(d.sim.engine.state.orders.size);
    });
    expect((await d.call('POST', '/_sim/clock/advance', null, { ms: HOUR })).status).toBe(200);

    // 360 auctions of some 20 orders each went by; memory held one to two minutes of them.
    expect(held).toHaveLength(360);
    expect(Math.max(...held)).toBeLessThan(1_000);
    const placed = (d.sim.getState().market as { placed: number }).placed;
    expect(placed).toBeGreaterThan(2_000);
    // Nothing was lost: the file holds the rest (a listing of one participant counts them all).
    const plain = createSimulator({ clock: 'manual', startTime: T0, market: 'calm', seed: 9 });
    plain.advance(0);
    plain.advance(HOUR);
    const list = (sim: Simulator) =>
      sim
        .handle(
          new Request('http://sim.test/v1/match/orders?pageSize=1', {
            headers: { authorization: 'Bearer TEST_API_KEY:noise-0001:sim' },
          }),
        )
        .then((r) => r.json() as Promise<{ data: { pagination: { total: number } } }>);
    const [stored, kept] = await Promise.all([list(d.sim), list(plain)]);
    expect(stored.data.pagination.total).toBe(kept.data.pagination.total);
    expect(stored.data.pagination.total).toBeGreaterThan(50);
    await Promise.all([d.sim.close(), plain.close()]);
  });
});
