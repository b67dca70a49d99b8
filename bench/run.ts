// Runs every benchmark in one process and prints each against its target.
// `npm run bench` for the full run; `npm run bench -- --smoke` for a seconds-long check that they still run.
// Benchmarks are never part of the test suite: timings on a shared machine are not assertions.
import { benchClearing } from './clearing.js';
import { benchPlacements } from './placements.js';
import { benchRest } from './rest.js';
import { benchStream } from './stream.js';

const smoke = process.argv.includes('--smoke');

console.log(`# clearing${smoke ? ' (smoke)' : ''}`);
const clearing = await benchClearing(smoke ? [1_000, 10_000] : undefined);
console.table(clearing);
const largest = clearing.at(-1);
if (largest)
  console.log(`${largest.size} orders cleared in ${largest.medianMs} ms (target: 1,000,000 in < 2000 ms)`);

console.log('# placements');
console.table(await benchPlacements(smoke ? 2_000 : undefined));

console.log('# REST client overhead');
const rest = await benchRest(smoke ? { requests: 200, warmup: 50, rounds: 1 } : {});
console.table(rest);
for (const row of rest.filter((r) => r.variant.startsWith('match-venue'))) {
  console.log(
    `concurrency ${row.concurrency}: ${row.variant} ${row.ratioToUndici}x raw undici.request (target <= 1.10x)`,
  );
}

console.log('# stream');
const stream = await benchStream(smoke ? 5_000 : undefined, smoke ? 1 : undefined);
console.table([stream]);
console.log(`stream iterator ${stream.ratio}x the raw ws rate (target >= ${stream.target}x)`);
