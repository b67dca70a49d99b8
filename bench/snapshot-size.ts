/**
 * Snapshot size on a busy market: `npx tsx bench/snapshot-size.ts [--root DIR] [12,120,1200]`.
 *
 * Runs `market: 'busy'` on the manual clock (the simulator of `DIR/src/simulator`, default this
 * checkout; give an older checkout for a before figure), clears auctions one by one and, at each
 * count given, writes `sim.snapshot()` as JSON text: its bytes, the orders in memory, bytes per
 * order, the time the text took, with `--restore` the time a fresh simulator takes to restore it,
 * and the process's RSS after. A text past the longest JavaScript string is reported as such
 * (it cannot be served by POST /_sim/snapshot at all).
 */
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const rootAt = args.indexOf('--root');
const root = rootAt >= 0 ? (args[rootAt + 1] as string) : new URL('..', import.meta.url).pathname;
const restore = args.includes('--restore');
const counts = (args.find((a, i) => /^[\d,]+$/.test(a) && args[i - 1] !== '--root') ?? '12,120,1200')
  .split(',')
  .map(Number);

const { createSimulator } = (await import(
  pathToFileURL(`${root}/src/simulator/index.ts`).href
)) as typeof import('../src/simulator/index.js');
const sim = createSimulator({ clock: 'manual', startTime: '2026-01-01T00:00:00Z', market: 'busy' });
let cleared = 0;
for (const n of counts) {
  while (cleared < n) {
    sim.clearAuction();
    cleared++;
  }
  const orders = sim.engine.state.orders.size;
  const started = performance.now();
  let text: string | undefined;
  let bytes: number | string;
  try {
    text = JSON.stringify(sim.snapshot());
    bytes = Buffer.byteLength(text);
  } catch (err) {
    bytes = `not writable (${err instanceof Error ? err.message : String(err)})`;
  }
  const ms = Math.round(performance.now() - started);
  const perOrder = typeof bytes === 'number' ? Math.round(bytes / orders) : '-';
  // The restore of that text into a fresh simulator (what POST /_sim/restore does after reading it).
  let restoreMs: number | undefined;
  if (text !== undefined && restore) {
    const at = performance.now();
    const fresh = createSimulator({ clock: 'manual' });
    fresh.restore(JSON.parse(text));
    restoreMs = Math.round(performance.now() - at);
    await fresh.close();
  }
  text = undefined;
  const rssMb = Math.round(process.memoryUsage().rss / 1048576);
  console.log(JSON.stringify({ auctions: n, orders, bytes, bytesPerOrder: perOrder, ms, restoreMs, rssMb }));
}
await sim.close();
