/**
 * What a store's checkpoint costs to produce: `npx tsx bench/checkpoint-doc.ts [--auctions 60] [--runs 20]`.
 *
 * The day bench's market (bench/day.ts) runs `--auctions` auctions, then the checkpoint's document
 * (the simulator's snapshot with the live state shared, as simulator-store.ts serializes it) is
 * built and serialized `--runs` times. Reports ms per document: the engine part alone
 * (exportEngineState, the part that grows with the book), the whole document, and its JSON text;
 * and the text's length, to compare runs of two versions (the text must not change).
 */
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { createSimulator, type Simulator } from '../src/simulator/index.js';
import { DAY_MARKET } from './day.js';

export interface CheckpointDocResult {
  auctions: number;
  ordersInMemory: number;
  /** `engine.exportSnapshot(true)`: the state as plain objects. */
  engineMs: number;
  /** The whole document, then JSON.stringify of it: what one checkpoint costs before SQLite. */
  documentMs: number;
  stringifyMs: number;
  textLength: number;
  /** The text's digest: two versions given the same state must print the same. */
  textSha256: string;
}

// The store's document (simulator.ts `doc`): private, since only the store may share live objects.
const storeDocument = (sim: Simulator): unknown => (sim as unknown as { doc: () => unknown }).doc();

export function benchCheckpointDoc(options: { auctions?: number; runs?: number } = {}): CheckpointDocResult {
  const auctions = options.auctions ?? 60;
  const runs = options.runs ?? 20;
  const sim = createSimulator({
    clock: 'manual',
    startTime: '2026-01-01T00:00:00Z',
    seed: 1,
    market: DAY_MARKET,
  });
  for (let i = 0; i < auctions; i++) sim.advance(10_000);
  let [engineMs, documentMs, stringifyMs, textLength, textSha256] = [0, 0, 0, 0, ''];
  for (let i = 0; i < runs; i++) {
    let t = performance.now();
    sim.engine.exportSnapshot(true);
    engineMs += performance.now() - t;
    t = performance.now();
    const doc = storeDocument(sim);
    documentMs += performance.now() - t;
    t = performance.now();
    const text = JSON.stringify(doc);
    stringifyMs += performance.now() - t;
    textLength = text.length;
    if (i === 0) textSha256 = createHash('sha256').update(text).digest('hex');
  }
  const ordersInMemory = sim.engine.state.orders.size;
  void sim.close();
  const per = (ms: number) => Number((ms / runs).toFixed(1));
  return {
    auctions,
    ordersInMemory,
    engineMs: per(engineMs),
    documentMs: per(documentMs),
    stringifyMs: per(stringifyMs),
    textLength,
    textSha256,
  };
}

function flag(name: string): number | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : undefined;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [auctions, runs] = [flag('--auctions'), flag('--runs')];
  const result = benchCheckpointDoc({
    ...(auctions !== undefined ? { auctions } : {}),
    ...(runs !== undefined ? { runs } : {}),
  });
  if (process.argv.includes('--json')) console.log(JSON.stringify(result));
  else console.table([result]);
}
