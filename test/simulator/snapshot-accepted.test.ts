import fc from 'fast-check';
import { createSimulator, type Simulator } from 'match-venue/simulator';
import { describe, expect, it } from 'vitest';
import { key, MINTER, newDriver } from './helpers.js';

// Issue 33, point 1: a document that passes restore never makes a later request 5xx. A genuine
// snapshot is edited at one to three places to edge values (out of range times and money, other
// ids, markup, Object.prototype names); whatever restore accepts is then driven through the
// controls and the venue API, and no answer may be a 5xx nor any error reach the logger.

const MARKET = { preset: 'calm', noise: { count: 4 }, liquidity: { count: 1 } } as const;
const MAX_INSTANT = 253_402_300_799_999;

async function genuine(): Promise<unknown> {
  const d = newDriver({ market: MARKET, seed: 4 });
  await d.placed(d.burn('1000.00', { feeBps: '5', postFillAction: 'roll' }));
  await d.placed(d.mint('400.00', { feeBps: '6', postFillAction: 'fallback' }));
  await d.clear(true);
  await d.clear(false);
  await d.placed(d.burn('500.00', { feeBps: '7.5' }));
  const w = await d.call('POST', '/v1/match/withdrawals', MINTER.apiKey, {
    idempotencyKey: key(),
    amount: { amount: '10.00', currency: 'USD' },
    fiatAccountId: MINTER.fiatAccountId,
  });
  expect(w.status).toBe(201);
  return JSON.parse(JSON.stringify(d.sim.snapshot()));
}

type Path = (string | number)[];

/** Every leaf (number, string, boolean, null) of `value`, by path. */
function leaves(value: unknown, at: Path = [], out: { path: Path; value: unknown }[] = []) {
  if (value !== null && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) leaves(v, [...at, Array.isArray(value) ? Number(k) : k], out);
  else out.push({ path: at, value });
  return out;
}

function setAt(doc: unknown, path: Path, value: unknown): void {
  let node = doc as Record<string | number, unknown>;
  for (const part of path.slice(0, -1)) node = node[part] as Record<string | number, unknown>;
  node[path.at(-1) as string | number] = value;
}

async function call(
  sim: Simulator,
  method: string,
  path: string,
  init: { key?: string; body?: unknown } = {},
) {
  const res = await sim.handle(
    new Request(`http://sim.test${path}`, {
      method,
      headers: {
        ...(init.key ? { authorization: `Bearer ${init.key}` } : {}),
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    }),
  );
  await res.text();
  return res.status;
}

/** What a team does with a simulator after a restore: every answer must be below 500. */
async function drive(sim: Simulator): Promise<Record<string, number>> {
  const statuses: Record<string, number> = {};
  const state = sim.getState();
  const steps: [string, string, { key?: string; body?: unknown }?][] = [
    ['GET', '/_sim/state'],
    ['GET', '/_sim/auctions/current'],
    ['GET', '/_sim/orders'],
    ['GET', '/_sim/auctions'],
    ...state.entities.slice(0, 6).flatMap((e): [string, string, { key: string }][] =>
      e.apiKey === null
        ? []
        : [
            ['GET', '/v1/match/account', { key: e.apiKey }],
            ['GET', '/v1/match/orders', { key: e.apiKey }],
          ],
    ),
    ['POST', '/_sim/auctions/clear', { body: { settle: false } }],
    ['POST', '/_sim/auctions/settle'],
    ['POST', '/_sim/auctions/clear'],
    ['GET', '/_sim/auctions/current'],
    ['POST', '/_sim/clock/advance', { body: { ms: 60_000 } }],
    ['GET', '/_sim/state'],
    ['POST', '/_sim/snapshot'],
    ['POST', '/_sim/reset'],
  ];
  for (const [method, path, init] of steps)
    statuses[`${method} ${path}`] = await call(sim, method, path, init);
  return statuses;
}

describe('a restored document never makes a later request 5xx', () => {
  it('one to three edits of a genuine snapshot: refused with 400, or every later answer below 500', async () => {
    const base = await genuine();
    const all = leaves(base);
    const ids = [
      ...new Set(all.flatMap((l) => (typeof l.value === 'string' && l.value.length === 36 ? [l.value] : []))),
    ];
    const edge = fc.oneof(
      fc.constantFrom(-1, 0, 1, 1.5, 2 ** 48, MAX_INSTANT, MAX_INSTANT + 1, Number.MAX_SAFE_INTEGER, 1e21),
      fc.constantFrom('', '<b>9</b>', 'constructor', '__proto__', 'Infinity', '9', '-1', null, true),
      fc.constantFrom(...ids),
    );
    // A number moved a little (a time, a count, a fee) is often still a document the rules take.
    const shift = fc.integer({ min: -2, max: 2 }).map((n) => ({ shift: n * 1000 + Math.sign(n) }));
    const edits = fc.array(fc.tuple(fc.nat({ max: all.length - 1 }), fc.oneof(edge, shift, shift)), {
      minLength: 1,
      maxLength: 3,
    });
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(edits, async (list) => {
        const doc = structuredClone(base);
        for (const [i, edit] of list) {
          const leaf = all[i] as { path: Path; value: unknown };
          const shifted = typeof edit === 'object' && edit !== null && typeof leaf.value === 'number';
          setAt(doc, leaf.path, shifted ? (leaf.value as number) + (edit as { shift: number }).shift : edit);
        }
        const errors: string[] = [];
        const sim = createSimulator({
          clock: 'manual',
          logger: { info: () => {}, error: (m, e) => errors.push(`${m}: ${String(e)}`) },
        });
        const restored = await call(sim, 'POST', '/_sim/restore', { body: doc });
        expect([200, 400]).toContain(restored);
        if (restored === 200) {
          accepted++;
          const statuses = await drive(sim);
          expect(Object.entries(statuses).filter(([, s]) => s >= 500)).toEqual([]);
        }
        expect(errors).toEqual([]);
        await sim.close();
      }),
      { numRuns: 400, seed: 33 },
    );
    // Edits a document may carry (a time within range, another fee, a count) were taken and driven.
    expect(accepted).toBeGreaterThan(30);
  });
});
