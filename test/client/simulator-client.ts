import { MatchVenue, type MatchVenueOptions, usd } from 'match-venue';
import { createSimulator, type RunningSimulator, SEEDED, type Simulator } from 'match-venue/simulator';
import { afterAll, beforeAll, beforeEach } from 'vitest';

// Shared by the match-venue-*.test.ts files: one simulator per file and clients on it.

/** The file's simulator (live bindings: set before its first test). */
export let sim: Simulator;
export let running: RunningSimulator;

/** One simulator for the calling file, listening over HTTP, reset to its seeded state before each test. */
export function useSimulator(): void {
  beforeAll(async () => {
    sim = createSimulator();
    running = await sim.listen();
  });
  afterAll(async () => {
    await sim.close();
  });
  beforeEach(() => {
    sim.reset();
  });
}

export const noWait = { sleep: async () => {} };
export function venue(who: 'burner' | 'minter' | 'ineligible' | 'noaccount', extra: MatchVenueOptions = {}) {
  return new MatchVenue({ apiKey: SEEDED[who].apiKey, baseUrl: running.url, retry: noWait, ...extra });
}

/** A client whose requests are counted (global fetch to the same server). */
export function counted(who: 'burner' | 'minter') {
  const calls: string[] = [];
  const client = venue(who, {
    fetch: (input, init) => {
      calls.push(`${init.method} ${input}`);
      return fetch(input, init);
    },
  });
  return { client, calls };
}

export const burnParams = (amount = '1000', feeBps: string | null = '5') => ({
  orderType: 'BURN' as const,
  amount: usd(amount),
  feeBps,
  postFillAction: 'cancel' as const,
  sourceWalletId: SEEDED.burner.walletId,
  fiatAccountId: SEEDED.burner.fiatAccountId,
});
export const mintParams = (amount = '1000', feeBps: string | null = '1') => ({
  orderType: 'MINT' as const,
  amount: usd(amount),
  feeBps,
  postFillAction: 'cancel' as const,
});
