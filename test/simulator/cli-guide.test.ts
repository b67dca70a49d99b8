import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseCliArgs, UsageError } from '../../src/simulator/cli/args.js';
import { controlRoutes } from '../../src/simulator/http/control-routes.js';
import { BASE, cli, useCliCleanup } from './cli-process.js';

// The CLI is the main door (issue 33, point 8): its flags turn on what the library can, and its
// --help and banner name every control route and every test key a scenario adds.

useCliCleanup();
const dir = mkdtempSync(join(tmpdir(), 'cli-guide-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The routes the issue found missing, then every route of the control table. */
const ROUTES = [
  'POST /_sim/snapshot',
  'POST /_sim/restore',
  'GET /_sim/auctions/{auctionId}',
  'GET /_sim/auctions/current',
  'GET /_sim/orders',
  'GET /_sim/log',
  'GET /_sim/faults',
  ...Object.entries(controlRoutes).flatMap(([path, methods]) =>
    Object.keys(methods).map((method) => `${method} ${path}`),
  ),
];

function expectEveryRoute(text: string): void {
  for (const route of ROUTES) {
    const [method, path] = route.split(' ') as [string, string];
    const escaped = path.replace(/[{}]/g, '\\$&');
    expect(text, route).toMatch(new RegExp(`^\\s+${method}\\s+${escaped}(\\s|$)`, 'm'));
  }
}

async function log(base: string) {
  const res = await fetch(`${base}/_sim/log`);
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    dropped: res.headers.get('x-sim-log-dropped'),
    text: await res.text(),
  };
}

describe('match-venue-sim: the CLI is the main door', { timeout: 60_000 }, () => {
  it('--event-log, alone or with a number of lines, turns GET /_sim/log on; a bad value exits 2 naming it', async () => {
    const bare = cli(['--event-log', '--port', '0', '--clock', 'manual', '--no-ui', '-q']);
    const three = cli(['--port', '0', '--clock', 'manual', '--no-ui', '-q', '--event-log', '3']);
    for (const sim of [bare, three]) {
      const [, base] = await sim.waitFor(BASE);
      expect((await fetch(`${base}/_sim/auctions/clear`, { method: 'POST' })).status).toBe(200);
    }
    const [, bareBase = ''] = (await bare.waitFor(BASE)) as string[];
    const full = await log(bareBase);
    expect(full).toMatchObject({ status: 200, type: 'application/x-ndjson', dropped: '0' });
    const lines = full.text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({ type: 'control', action: 'clearAuction' });
    expect(lines.map((l) => l.event)).toContain('auction.settled');
    expect(bare.out.text).toContain(`event log:     ${bareBase}/_sim/log`);
    const [, threeBase = ''] = (await three.waitFor(BASE)) as string[];
    const kept = await log(threeBase);
    expect(kept.status).toBe(200);
    expect(kept.text.trimEnd().split('\n')).toHaveLength(3);
    expect(Number(kept.dropped)).toBe(lines.length - 3);

    const refused = [
      ['--event-log', '0'],
      ['--event-log', 'many'],
    ].map((bad) => cli([...bad, '--port', '0']));
    for (const sim of refused) {
      expect((await sim.exited)[0]).toBe(2);
      expect(sim.out.err).toBe(
        'match-venue-sim: --event-log must be an integer from 1 to 5000000\nRun match-venue-sim --help for every flag.\n',
      );
    }
    for (const bad of [['--event-log=-1'], ['--event-log', '5000001'], ['--event-log', '-5']])
      expect(() => parseCliArgs(bad), bad.join(' ')).toThrow(
        new UsageError('--event-log must be an integer from 1 to 5000000'),
      );
    expect(parseCliArgs(['--event-log=500']).eventLog).toBe(500);
    expect(parseCliArgs(['--port', '0', '--event-log']).eventLog).toBe(true);
    expect(parseCliArgs([]).eventLog).toBeUndefined();
  });

  it('--help and the banner list every /_sim/ route; --help says a --control-token shows in the process list', async () => {
    const help = cli(['--help']);
    expect((await help.exited)[0]).toBe(0);
    expectEveryRoute(help.out.text);
    expect(help.out.text).toMatch(
      /^\s+--control-token <token>.*shows in the process list \(ps\).*MATCH_VENUE_SIM_CONTROL_TOKEN$/m,
    );
    expect(help.out.text).toMatch(/^\s+--event-log \[lines\]\s+turn on the event log/m);

    const sim = cli(['--port', '0', '--clock', 'manual', '--no-ui', '-q']);
    await sim.waitFor(/OpenAPI \(every path/);
    expectEveryRoute(sim.out.text);
  });

  it("prints a scenario's entities in the banner, plain and --json: keys, wallet and fiat ids as the docs shape them", async () => {
    const file = join(dir, 'desk.yaml');
    writeFileSync(
      file,
      'version: 1\nentities:\n  minter: { venueBalance: "50000.00" }\n  quoter: { wallet: "2000.00" }\n  maker: { fundingSide: MINT, venueBalance: "900.00" }\n',
    );
    const plain = cli(['--scenario', file, '--port', '0', '--no-ui', '-q']);
    const json = cli(['--scenario', file, '--port', '0', '--no-ui', '-q', '--json']);
    await plain.waitFor(/OpenAPI \(every path/);
    const expected = [
      { name: 'quoter', n: 1 },
      { name: 'maker', n: 2 },
    ].map(({ name, n }) => ({
      name,
      apiKey: `TEST_API_KEY:${name}:sim`,
      keyId: `TEST_API_KEY:${name}`,
      walletId: `6000000${n}-0000-4000-8000-00000000a001`,
      fiatAccountId: `6000000${n}-0000-4000-8000-00000000f001`,
    }));
    expect(plain.out.text).toContain('Scenario entities (test keys TEST_API_KEY:<name>:sim');
    for (const e of expected)
      expect(plain.out.text).toMatch(
        new RegExp(
          `^\\s+${e.name}\\s+key ${e.apiKey}\\s+wallet ${e.walletId}\\s+fiat ${e.fiatAccountId}$`,
          'm',
        ),
      );
    // The seeded minter keeps its line; it is not listed again as a scenario entity.
    expect(plain.out.text.match(/^\s+minter\s+key /gm)).toHaveLength(1);

    const [line = ''] = await json.waitFor(/^\{"type":"startup".*$/m);
    const startup = JSON.parse(line) as { url: string; entities: Record<string, unknown>[] };
    expect(startup.entities.slice(-2)).toEqual(expected);
    // The printed ids are the simulator's, and follow the seeded shape (docs/MARKET.md, Scenarios).
    const state = (await (await fetch(`${startup.url}/_sim/state`)).json()) as {
      data: {
        entities: {
          name: string;
          entityId: string;
          wallets: { id: string }[];
          fiatAccounts: { id: string }[];
        }[];
      };
    };
    for (const e of expected) {
      const entity = state.data.entities.find((s) => s.name === e.name);
      expect(entity?.wallets[0]?.id).toBe(e.walletId);
      expect(entity?.fiatAccounts[0]?.id).toBe(e.fiatAccountId);
      expect(entity?.entityId).toMatch(/^6[0-9a-f]{7}-0000-4000-8000-[0-9a-f]{12}$/);
    }
  });
});
