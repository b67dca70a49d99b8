/**
 * Where the examples run: an embedded simulator (default), mock mode (MATCH_VENUE_ENV=mock), or the server at MATCH_VENUE_BASE_URL
 * (for instance `npx match-venue-sim`; MATCH_VENUE_SIM_CONTROL_TOKEN when it asks for a control token). Against a simulator the seeded parties and the `/_sim/`
 * control plane are used; against a real venue the party comes from MATCH_VENUE_API_KEY,
 * MATCH_VENUE_WALLET_ID and MATCH_VENUE_FIAT_ACCOUNT_ID and auctions clear on their own schedule.
 */
import { getMockSimulator } from 'match-venue/testing';
import { createSimulator, SEEDED, type SimulatorOptions } from 'match-venue/simulator';

export interface Party {
  apiKey: string;
  walletId: string;
  fiatAccountId: string;
}

export interface Target {
  baseUrl: string;
  /** True when the target is a simulator (its control plane answers). */
  simulated: boolean;
  burner: Party;
  minter: Party;
  /** Runs the current auction to the end now (simulator), or waits for the venue's own clearing. */
  clearAuction(): Promise<void>;
  /** GET `/_sim/<path>`'s `data` (a simulator only; a real venue has no control plane). */
  control(path: string): Promise<unknown>;
  close(): Promise<void>;
}

async function control(baseUrl: string, path: string, body?: unknown): Promise<unknown> {
  // A simulator off loopback (a shared sandbox) wants its control token on /_sim/*.
  const token = process.env.MATCH_VENUE_SIM_CONTROL_TOKEN;
  const res = await fetch(`${baseUrl}/_sim/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { 'x-sim-control-token': token } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`/_sim/${path} answered ${res.status}`);
  return ((await res.json()) as { data: unknown }).data;
}

function fromEnv(): Party {
  const need = (name: string) => {
    const value = process.env[name];
    if (!value) throw new Error(`Set ${name} to run this example against a real venue.`);
    return value;
  };
  return {
    apiKey: need('MATCH_VENUE_API_KEY'),
    walletId: need('MATCH_VENUE_WALLET_ID'),
    fiatAccountId: need('MATCH_VENUE_FIAT_ACCOUNT_ID'),
  };
}

const seeded = (name: 'burner' | 'minter'): Party => ({
  apiKey: SEEDED[name].apiKey,
  walletId: SEEDED[name].walletId,
  fiatAccountId: SEEDED[name].fiatAccountId,
});

// A remote simulator or mock mode is configured where it starts (--market, MATCH_VENUE_MOCK_MARKET).
/** `embedded`: the options of the simulator started when no other target is set. */
export async function openTarget(embedded: SimulatorOptions = {}): Promise<Target> {
  if (process.env.MATCH_VENUE_ENV === 'mock') {
    // Mock mode: every client talks to the process's shared in-process simulator.
    const sim = await getMockSimulator();
    return {
      baseUrl: 'http://127.0.0.1',
      simulated: true,
      burner: seeded('burner'),
      minter: seeded('minter'),
      clearAuction: async () => {
        sim.clearAuction();
      },
      control: async (path) => {
        const res = await sim.handle(new Request(`http://127.0.0.1/_sim/${path}`));
        if (!res.ok) throw new Error(`/_sim/${path} answered ${res.status}`);
        return ((await res.json()) as { data: unknown }).data;
      },
      close: () => sim.close(),
    };
  }
  const remote = process.env.MATCH_VENUE_BASE_URL;
  if (!remote) {
    const sim = createSimulator(embedded);
    const running = await sim.listen();
    return {
      baseUrl: running.url,
      simulated: true,
      burner: seeded('burner'),
      minter: seeded('minter'),
      clearAuction: async () => {
        await control(running.url, 'auctions/clear', {});
      },
      control: (path) => control(running.url, path),
      close: () => sim.close(),
    };
  }
  const baseUrl = remote.replace(/\/+$/, '');
  const simulated = await control(baseUrl, 'state').then(
    () => true,
    () => false,
  );
  if (simulated) {
    return {
      baseUrl,
      simulated,
      burner: seeded('burner'),
      minter: seeded('minter'),
      clearAuction: async () => {
        await control(baseUrl, 'auctions/clear', {});
      },
      control: (path) => control(baseUrl, path),
      close: async () => {},
    };
  }
  const party = fromEnv();
  return {
    baseUrl,
    simulated,
    burner: party,
    minter: party,
    // A real venue clears on its own cycle; give it one.
    clearAuction: () =>
      new Promise((resolve) => setTimeout(resolve, Number(process.env.MATCH_VENUE_CYCLE_MS ?? 15_000))),
    control: async (path) => {
      throw new Error(`/_sim/${path}: a real venue has no simulator control plane`);
    },
    close: async () => {},
  };
}
