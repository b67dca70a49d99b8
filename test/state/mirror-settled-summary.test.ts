import { type Account, MatchVenue } from 'match-venue';
import { SEEDED } from 'match-venue/simulator';
import { getMockSimulator } from 'match-venue/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { burnParams, clientOf, mintParams, type Rig, startRig } from './helpers.js';

// When the mirror reports an order final, its summary already includes that order's settlement:
// a bot that asserts its balance right after `mirror.waitFor(id, filled)` or
// `orders.waitForOutcome(id, { stream: mirror })` sees the balance after the fill, every time.
// The venue sends a fill's `order.updated` before the `balance.updated` of the same settlement,
// so a mirror that spoke at the order event showed the balance from before it (8-21 ms behind).

const ROUNDS = Number(process.env.ROUNDS ?? 1_000);

interface Setup {
  minter: MatchVenue;
  burner: MatchVenue;
  clear(): void;
  close(): Promise<void>;
}

async function overHttp(): Promise<Setup> {
  const rig: Rig = await startRig(1024);
  return {
    minter: clientOf(rig, 'minter'),
    burner: clientOf(rig, 'burner'),
    clear: () => void rig.venue.sim.clearAuction(),
    close: () => rig.close(),
  };
}

async function inMockMode(): Promise<Setup> {
  const sim = await getMockSimulator();
  sim.reset();
  return {
    minter: new MatchVenue({ environment: 'mock', apiKey: SEEDED.minter.apiKey }),
    burner: new MatchVenue({ environment: 'mock', apiKey: SEEDED.burner.apiKey }),
    clear: () => void sim.clearAuction(),
    close: async () => sim.reset(),
  };
}

let setup: Setup | undefined;
let mirror: Account.AccountMirror | undefined;
afterEach(async () => {
  await mirror?.close();
  await setup?.close();
  mirror = undefined;
  setup = undefined;
});

describe.each([
  ['over HTTP', overHttp],
  ['in mock mode', inMockMode],
])('%s: a final order in the mirror is already in its summary', (_name, start) => {
  it(`${ROUNDS} fills: the balance right after the wait is the balance after the fill`, async () => {
    setup = await start();
    const { minter, burner } = setup;
    mirror = minter.account.mirror();
    await mirror.ready;
    let before = mirror.summary!.activity.totalMatched.amount;
    for (let round = 0; round < ROUNDS; round++) {
      const placed = await minter.orders.place(mintParams('100', '4'));
      await burner.orders.place(burnParams('100', '6'));
      setup.clear();
      // Alternately the mirror's own wait and waitForOutcome given the mirror.
      const order =
        round % 2 === 0
          ? await mirror.waitFor(placed.orderId, (o) => o.status === 'filled')
          : await minter.orders.waitForOutcome(placed.orderId, { stream: mirror, pollIntervalMs: 1 });
      // Read at once, before anything else can run: what a bot's next line sees.
      const summary: Account.AccountSummary = structuredClone(mirror.summary!);
      const shown = mirror.order(placed.orderId);
      expect(order.status).toBe('filled');
      expect(shown?.status, `round ${round}: the mirror shows the outcome`).toBe('filled');
      // Each fill adds its 100.00 to the activity the summary reports.
      expect(summary.activity.totalMatched.amount, `round ${round}`).not.toBe(before);
      expect(summary, `round ${round}: the summary the venue answers now`).toEqual(
        await minter.account.retrieve(),
      );
      before = summary.activity.totalMatched.amount;
    }
  }, 300_000);
});
