#!/usr/bin/env node
import { readApiKey } from '../contract/api-key.js';
import { SUBPROTOCOL, TICKET_PROTOCOL_PREFIX, WS_PATH } from '../contract/ws-protocol.js';
import { announceAccess } from './cli/access-notice.js';
import { parseCliArgs, USAGE, UsageError } from './cli/args.js';
import {
  controlOperations,
  type GuideEntity,
  guideLines,
  openApiPath,
  restOperations,
  seededEntities,
} from './cli/guide.js';
import { Output, simTimeText, wantsColour } from './cli/log-format.js';
import { packageVersion } from './cli/version.js';
import type { WireAuction } from './engine/rest-shapes.js';
import type { MarketConfig } from './market/config.js';
import { loadMarket } from './market/load.js';
import { loadScenario } from './scenario/load.js';
import type { ScenarioDocument } from './scenario/schema.js';
import type { RunningSimulator } from './serve/listen.js';
import { Simulator } from './simulator.js';

/**
 * A refused command line: the reason and where to look, not the whole usage (exit 2). `hint`
 * false: the reason says what to do (a store file in use or not a store), one line.
 */
function fail(message: string, hint = true): never {
  process.stderr.write(
    `match-venue-sim: ${message}\n${hint ? 'Run match-venue-sim --help for every flag.\n' : ''}`,
  );
  process.exit(2);
}

/** Refusals of `--store` that name the file and what to do; the flags were not the mistake. */
const STORE_REFUSALS = new Set(['StoreInUseError', 'StoreLayoutError', 'StoreUnavailableError']);

// `match-venue-sim probe <cassette>`: a subcommand with its own flags, never a server (cli/probe.ts).
if (process.argv[2] === 'probe') {
  const { runProbeCli } = await import('./cli/probe.js');
  const code = await runProbeCli(process.argv.slice(3));
  // Written out before exiting, whatever stdout is.
  await new Promise((resolve) => process.stdout.write('', resolve));
  process.exit(code);
}

let args: ReturnType<typeof parseCliArgs>;
try {
  args = parseCliArgs(process.argv.slice(2));
} catch (err) {
  if (!(err instanceof UsageError)) throw err;
  fail(err.message);
}
if (args.help) {
  // The guide names the address these flags would serve at (port 0: chosen at start).
  const at = `${args.host.includes(':') ? `[${args.host}]` : args.host}:${args.port === 0 ? '<port>' : args.port}`;
  const guide = guideLines(`http://${at}`, `ws://${at}`);
  process.stdout.write(`${USAGE}\n\n${guide.join('\n')}\n`);
  process.exit(0);
}
if (args.version) {
  process.stdout.write(`${packageVersion()}\n`);
  process.exit(0);
}

const FLAG_OF: Record<string, string> = {
  startTime: '--start-time',
  cycleMs: '--cycle-ms',
  lockMs: '--lock-ms',
  settleMs: '--settle-ms',
  ticketTtlMs: '--ticket-ttl-ms',
};

// A market file is read before the simulator starts (by the loader code and mock mode use too):
// a mistake in it is a refused command line.
let market: MarketConfig | undefined;
try {
  market = args.market === undefined ? undefined : await loadMarket(args.market);
} catch (err) {
  fail(`--market: ${err instanceof Error ? err.message : String(err)}`);
}

// So is a scenario: a mistake names the file, the path and the rule (exit 2).
let scenario: ScenarioDocument | undefined;
try {
  scenario = args.scenario === undefined ? undefined : await loadScenario(args.scenario);
} catch (err) {
  fail(`--scenario: ${err instanceof Error ? err.message : String(err)}`);
}

let sim: Simulator;
const out = new Output({
  json: args.json,
  colour: wantsColour(process.stdout, process.env, args.json),
  // Nothing is logged before the simulator exists but a refusal of its options (on stderr).
  now: () => sim.now(),
  write: (line) => process.stdout.write(`${line}\n`),
});

try {
  // A flag wins over the scenario, the scenario over the CLI's defaults (docs/MARKET.md, Scenarios):
  // decided by the simulator's one resolveOptions, with the CLI's default of a real clock.
  sim = new Simulator(
    {
      ...(args.clockGiven ? { clock: args.clock } : {}),
      ...(args.startTime === undefined ? {} : { startTime: args.startTime }),
      ...(args.cycleMs === undefined ? {} : { cycleMs: args.cycleMs }),
      ...(args.lockMs === undefined ? {} : { lockMs: args.lockMs }),
      ...(args.settleMs === undefined ? {} : { settleMs: args.settleMs }),
      ...(args.seed === undefined ? {} : { seed: args.seed }),
      ...(args.ticketTtlMs === undefined ? {} : { ticketTtlMs: args.ticketTtlMs }),
      ...(args.restoreLimitBytes === undefined ? {} : { restoreLimitBytes: args.restoreLimitBytes }),
      ...(market === undefined ? {} : { market }),
      ...(scenario === undefined ? {} : { scenario }),
      ...(args.store === undefined ? {} : { store: args.store }),
      ...(args.eventLog === undefined ? {} : { eventLog: args.eventLog }),
      ...(args.faults === undefined ? {} : { faults: { presets: args.faults } }),
      logger: {
        info: (message) => out.line('info', { message }, message),
        error: (message, err) => out.error(message, err),
      },
    },
    { clock: 'real' },
  );
} catch (err) {
  const message = err instanceof Error ? err.message : String(err);
  // Before listening: a second simulator on a store file in use never touched it (store-lock.ts).
  if (err instanceof Error && STORE_REFUSALS.has(err.name)) fail(message, false);
  // The simulator names its options (startTime, lockMs); the user typed the flags.
  fail(
    message.replace(
      /\b(startTime|cycleMs|lockMs|settleMs|ticketTtlMs)\b/g,
      (option) => FLAG_OF[option] ?? option,
    ),
  );
}

sim.onEvent((e) => {
  if (e.channel !== 'market') return;
  const a = e.data as WireAuction;
  const fields = { event: e.event, auctionId: a.auctionId, phase: a.phase };
  switch (e.event) {
    case 'auction.opened':
      out.line(
        'auction',
        { ...fields, opensAt: a.opensAt, locksAt: a.locksAt, clearsAt: a.clearsAt },
        `auction ${a.auctionId} open (locks ${a.locksAt}, clears ${a.clearsAt})`,
      );
      break;
    case 'auction.locked':
      out.line('auction', fields, `auction ${a.auctionId} locked`);
      break;
    case 'auction.cleared':
      out.line(
        'auction',
        {
          ...fields,
          clearingFeeBps: a.clearingFeeBps,
          matchedVolume: a.matchedVolume.amount,
          fillsCount: a.fillsCount,
          orderCount: a.orderCount,
        },
        `auction ${a.auctionId} cleared: fee ${a.clearingFeeBps} bps, matched ${a.matchedVolume.amount} USD, ` +
          `${a.fillsCount} fills of ${a.orderCount} orders`,
      );
      break;
    case 'auction.settled':
      out.line('auction', fields, `auction ${a.auctionId} settled`);
      break;
  }
});

/** A seeded key's kind and id (kept in the JSON startup line, which has always had it). */
function keyId(apiKey: string): string {
  const parts = readApiKey(apiKey);
  return parts.ok ? `${parts.prefix}:${parts.id}` : '(see SEEDED)';
}

/**
 * The entities the scenario added, as the simulator made them. Their keys are test keys by
 * definition (`TEST_API_KEY:<name>:sim`, docs/MARKET.md, Scenarios: the name the user wrote is the
 * whole key), printed in full like the seeded ones: they open nothing but this simulator.
 */
function scenarioEntities(state: ReturnType<Simulator['getState']>): GuideEntity[] {
  const names = new Set(Object.keys(scenario?.entities ?? {}));
  const seeded = new Set(seededEntities().map((e) => e.name));
  return (
    state.entities
      // Only a key of that form is printed (a store's checkpoint could have brought another).
      .filter((e) => names.has(e.name) && !seeded.has(e.name) && e.apiKey === `TEST_API_KEY:${e.name}:sim`)
      .map((e) => ({
        name: e.name,
        apiKey: e.apiKey,
        walletId: e.wallets[0]?.id ?? null,
        fiatAccountId: e.fiatAccounts[0]?.id ?? '',
      }))
  );
}

function startup(running: RunningSimulator): void {
  const state = sim.getState();
  const wsUrl = `${running.wsUrl}${WS_PATH}`;
  // The seeded keys are the simulator's published test keys, printed in full: a curl or Python
  // user needs them, and they open nothing but this simulator. A scenario's keys likewise.
  const added = scenarioEntities(state);
  const entities = [...seededEntities(), ...added].map((e) => ({ ...e, keyId: keyId(e.apiKey) }));
  const lines = [
    `match-venue simulator ${packageVersion()}`,
    `  base URL:      ${running.url}`,
    `  WebSocket URL: ${wsUrl}`,
    ...(running.uiUrl ? [`  dashboard:     ${running.uiUrl}`] : []),
    ...(args.scenario ? [`  scenario:      ${args.scenario}`] : []),
    ...(args.store ? [`  store:         ${args.store}`] : []),
    `  clock:         ${sim.clock}, now ${simTimeText(() => sim.now())}; current auction ${state.auction.auctionId} (${state.auction.phase})`,
    '  log times:     simulated clock ([sim …]); request durations in wall-clock ms',
    ...(args.eventLog === undefined ? [] : [`  event log:     ${running.url}/_sim/log`]),
    ...guideLines(running.url, running.wsUrl, added).map((line) => `  ${line}`),
  ];
  out.block(
    'startup',
    {
      version: packageVersion(),
      url: running.url,
      wsUrl,
      dashboard: running.uiUrl ?? null,
      clock: sim.clock,
      scenario: args.scenario ?? null,
      store: args.store ?? null,
      now: simTimeText(() => sim.now()),
      auction: { auctionId: state.auction.auctionId, phase: state.auction.phase },
      logTimes: 'simulated clock; request ms are wall-clock',
      entities,
      rest: restOperations(),
      websocket: {
        ticket: `POST ${running.url}/v1/match/ws/ticket`,
        url: wsUrl,
        subprotocols: [SUBPROTOCOL, `${TICKET_PROTOCOL_PREFIX}<ticket>`],
      },
      openapi: openApiPath() ?? null,
      eventLog: args.eventLog === undefined ? null : `${running.url}/_sim/log`,
      control: {
        clear: `${running.url}/_sim/auctions/clear`,
        state: `${running.url}/_sim/state`,
        routes: controlOperations(),
      },
    },
    lines,
  );
}

async function main(): Promise<void> {
  const running = await sim
    .listen({
      host: args.host,
      port: args.port,
      ui: args.ui,
      allowPrivateWebhooks: args.allowPrivateWebhooks,
      ...(args.uiClients === undefined ? {} : { uiClients: args.uiClients }),
      ...args.access,
      ...(args.quiet ? {} : { onRequest: (entry) => out.request(entry) }),
    })
    .catch((err: unknown) => {
      fail(`cannot listen on ${args.host}:${args.port}: ${err instanceof Error ? err.message : String(err)}`);
    });
  startup(running);
  announceAccess(out, running);
}

let stopping = false;
async function stop(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  out.line('shutdown', { signal }, `${signal}: shutting down`);
  // A stuck close must not hang Ctrl-C forever.
  setTimeout(() => process.exit(1), 5_000).unref();
  await sim.close();
  process.exitCode = 0;
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));

main().catch((err: unknown) => fail(err instanceof Error ? err.message : String(err)));
