// Runs every benchmark in one process and prints each against its target.
// `npm run bench` (after `npm run build`) for the full run; `npm run bench -- --smoke` for a seconds-long check that they still run.
// Benchmarks are never part of the test suite: timings on a shared machine are not assertions.
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchClearing } from './clearing.js';
import { benchDashboardClients, describeDashboardClients } from './dashboard-clients.js';
import { benchEnginePath, formatEngineTable } from './engine-path.js';
import { benchDayInChild } from './day.js';
import { benchPlacements } from './placements.js';
import { benchRest, benchValidation, describeRest } from './rest.js';
import { benchServe } from './serve.js';
import { describeSize, measureSize } from './size.js';
import { benchStream } from './stream.js';
import { benchTelemetry, describeTelemetry } from './telemetry.js';

const smoke = process.argv.includes('--smoke');

console.log(
  '# bundle size of the main entry (esbuild, minified, split): what loads at import, then the lazy chunks',
);
const size = await measureSize();
console.table(size.rows);
console.table(size.lazy);
console.log(describeSize(size));

console.log(`# clearing${smoke ? ' (smoke)' : ''}`);
const clearing = await benchClearing(smoke ? [1_000, 10_000] : undefined);
console.table(clearing);
const largest = clearing.at(-1);
if (largest)
  console.log(`${largest.size} orders cleared in ${largest.medianMs} ms (target: 1,000,000 in < 2000 ms)`);

console.log('# engine path: placed through the engine, then lock, clear, settle with events and balances');
// One child process per row (peak RSS per size); the 1,000,000-order rows only in the full run.
const engine = await benchEnginePath(smoke ? [10_000] : undefined, smoke ? ['engine'] : undefined);
console.log(formatEngineTable(engine));
const engineLargest = engine.filter((r) => r.variant === 'engine').at(-1);
if (engineLargest)
  console.log(
    `${engineLargest.orders} orders locked, cleared and settled in ${engineLargest.pathMs.toFixed(0)} ms ` +
      '(target: 1,000,000 in < 2000 ms, events and balances included)',
  );

console.log('# placements');
console.table(await benchPlacements(smoke ? 2_000 : undefined));

console.log('# response validation, in process (one orders.retrieve answer)');
console.table(benchValidation(smoke ? 2_000 : undefined, smoke ? 3 : undefined));

console.log('# REST client overhead');
// Both what the tests import (the source, through tsx) and what users install (dist/; built by npm run build).
const restOptions = smoke ? { requests: 100, warmup: 50, rounds: 3 } : {};
const rest = [...(await benchRest(restOptions)), ...(await benchRest({ ...restOptions, dist: true }))];
console.table(rest);
for (const line of describeRest(rest)) console.log(line);

console.log(
  '# telemetry: per-call cost before it, with nothing registered, a channel subscriber, a provider',
);
const telemetry = await benchTelemetry(smoke ? { requests: 100, warmup: 50, rounds: 3 } : {});
console.table(telemetry);
for (const line of describeTelemetry(telemetry)) console.log(line);
console.log('# simulator over HTTP against a bare node:http server (autocannon, 64 connections)');
const serve = await benchServe({ smoke });
console.table(serve);
for (const r of serve.filter((row) => row.server === 'simulator'))
  console.log(`${r.route}: ${r.ratioToBare}x the bare server's rate (target >= 0.5x)`);

console.log('# stream');
const stream = await benchStream(smoke ? 5_000 : undefined, smoke ? 1 : undefined);
console.table([stream]);
console.log(`stream iterator ${stream.ratio}x the raw ws rate (target >= ${stream.target}x)`);

console.log(
  '# dashboards: REST with none and with many pages reading /_sim/ui/events; pages that never read',
);
const dashboards = await benchDashboardClients(
  smoke ? { clients: 20, stalled: 20, phaseS: 1, stallS: 2, cycleMs: 1000 } : {},
);
console.table([dashboards]);
console.log(describeDashboardClients(dashboards));

console.log('# a simulated day: 1,000 background participants, manual clock, without and with --store');
// Each in its own process (peak RSS is per process); the smoke run does 5 auctions, not 8,640.
const dayAuctions = smoke ? 5 : undefined;
const dayStore = join(tmpdir(), `match-venue-day-${process.pid}.db`);
const day = [
  benchDayInChild({ auctions: dayAuctions }),
  benchDayInChild({ auctions: dayAuctions, store: dayStore }),
];
for (const f of [dayStore, `${dayStore}-wal`, `${dayStore}-shm`]) rmSync(f, { force: true });
console.table(day);
for (const r of day)
  console.log(
    `${r.auctions} auctions ${r.store ? 'with' : 'without'} store: ${r.wallS} s, ${r.ordersPerS} orders/s, ` +
      `peak RSS ${r.peakRssMb} MB (target for 8,640: < 120 s, < 1024 MB)`,
  );
