#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { SEEDED } from './engine/seed.js';
import type { WireAuction } from './engine/wire.js';
import { createSimulator } from './simulator.js';

const USAGE = `Usage: match-venue-sim [options]
  --host <host>        interface to bind (default 127.0.0.1)
  --port <port>        port (default 4010; 0 picks a free one)
  --clock real|manual  real: auctions run on the wall clock (default); manual: only /_sim/ moves time
  --cycle-ms <ms>      auction cycle length (default 10000)
  --lock-ms <ms>       lock window at the end of each cycle (default 2000)
  --settle-ms <ms>     settlement delay after each clear (default 1000)
  --seed <n>           seed for fault draws (default 1)
  --ticket-ttl-ms <ms> WebSocket ticket lifetime (default 30000)
  -h, --help           this text`;

function fail(message: string): never {
  process.stderr.write(`${message}\n\n${USAGE}\n`);
  process.exit(2);
}

function int(name: string, value: string | undefined, min: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < min) fail(`--${name} must be an integer >= ${min}`);
  return Number(value);
}

let args: ReturnType<typeof parse>;
function parse() {
  return parseArgs({
    options: {
      host: { type: 'string', default: '127.0.0.1' },
      port: { type: 'string', default: '4010' },
      clock: { type: 'string', default: 'real' },
      'cycle-ms': { type: 'string' },
      'lock-ms': { type: 'string' },
      'settle-ms': { type: 'string' },
      seed: { type: 'string' },
      'ticket-ttl-ms': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  }).values;
}
try {
  args = parse();
} catch (err) {
  fail(err instanceof Error ? err.message : String(err));
}
if (args.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const clock = args.clock;
if (clock !== 'real' && clock !== 'manual') fail('--clock must be real or manual');
const port = int('port', args.port, 0) ?? 4010;
if (port > 65535) fail('--port must be at most 65535');
const cycleMs = int('cycle-ms', args['cycle-ms'], 1);
const lockMs = int('lock-ms', args['lock-ms'], 0);
const settleMs = int('settle-ms', args['settle-ms'], 0);
const seed = int('seed', args.seed, 0);
const ticketTtlMs = int('ticket-ttl-ms', args['ticket-ttl-ms'], 1);

const log = (line: string) => process.stdout.write(`${new Date().toISOString()} ${line}\n`);

let sim: ReturnType<typeof createSimulator>;
try {
  sim = createSimulator({
    clock,
    ...(cycleMs === undefined ? {} : { cycleMs }),
    ...(lockMs === undefined ? {} : { lockMs }),
    ...(settleMs === undefined ? {} : { settleMs }),
    ...(seed === undefined ? {} : { seed }),
    ...(ticketTtlMs === undefined ? {} : { ticketTtlMs }),
    logger: { info: log, error: (m, e) => log(`ERROR ${m}: ${e instanceof Error ? e.stack : String(e)}`) },
  });
} catch (err) {
  fail(err instanceof Error ? err.message : String(err));
}

sim.onEvent((e) => {
  if (e.channel !== 'market') return;
  const a = e.data as WireAuction;
  switch (e.event) {
    case 'auction.opened':
      log(`auction ${a.auctionId} open (locks ${a.locksAt}, clears ${a.clearsAt})`);
      break;
    case 'auction.locked':
      log(`auction ${a.auctionId} locked`);
      break;
    case 'auction.cleared':
      log(
        `auction ${a.auctionId} cleared: fee ${a.clearingFeeBps} bps, matched ${a.matchedVolume.amount} USD, ` +
          `${a.fillsCount} fills of ${a.orderCount} orders`,
      );
      break;
    case 'auction.settled':
      log(`auction ${a.auctionId} settled`);
      break;
  }
});

async function main(): Promise<void> {
  const running = await sim.listen({ host: args.host, port }).catch((err: unknown) => {
    fail(`cannot listen on ${args.host}:${port}: ${err instanceof Error ? err.message : String(err)}`);
  });
  const state = sim.getState();
  const lines = [
    'match-venue simulator',
    `  base URL:      ${running.url}`,
    `  WebSocket URL: ${running.wsUrl}/v1/match/ws`,
    `  clock:         ${clock}; current auction ${state.auction.auctionId} (${state.auction.phase})`,
    '  seeded entities (test keys; Authorization: Bearer <key>):',
  ];
  for (const name of ['burner', 'minter', 'ineligible', 'noaccount'] as const) {
    const s = SEEDED[name];
    const wallet = name === 'noaccount' ? '-' : s.walletId;
    lines.push(`    ${name.padEnd(10)} key ${s.apiKey.padEnd(28)} wallet ${wallet}  fiat ${s.fiatAccountId}`);
  }
  lines.push(
    `  control: POST ${running.url}/_sim/auctions/clear, GET ${running.url}/_sim/state (see README)`,
  );
  process.stdout.write(`${lines.join('\n')}\n`);
}

let stopping = false;
async function stop(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  log(`${signal}: shutting down`);
  // A stuck close must not hang Ctrl-C forever.
  setTimeout(() => process.exit(1), 5_000).unref();
  await sim.close();
  process.exitCode = 0;
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));

main().catch((err: unknown) => fail(err instanceof Error ? err.message : String(err)));
