/**
 * An eviction's drained account activity as the simulator's thread hands it to the store's writer
 * thread: each entry's [at, matched, rebates, fees] in one transferred Float64Array, entity by
 * entity, and the writer thread makes each entity's row text (`activity` in store-file.ts).
 * Encoding a thousand entities' rows as JSON and posting them as arrays of strings took 0.4 ms of
 * each auction on the simulator's thread (profiled, a stored day).
 *
 * The writer thread's built file (dist/simulator/store-writer.js, tsup.config.ts) carries this
 * module, so it imports Node's modules and types only: the thread loads nothing it does not run.
 */
import type { ActivityEntry } from '../engine/account.js';
import { groupByEntity } from '../engine/group-by.js';

/** Numbers per entry: at, matched, rebates, fees (the sums cumulative). */
const FIELDS = 4;

/** An eviction's activity entries, packed (`rows`' buffer is transferred). */
export interface PackedActivity {
  /** The entities, in the order their entries come. */
  entities: string[];
  /** Where each entity's entries start in `rows` (in entries), then their count. */
  runs: Int32Array;
  rows: Float64Array;
}

/** Packs entries entity by entity, each entity's in their order (time order). */
export function packActivity(entries: readonly ActivityEntry[]): PackedActivity {
  const groups = groupByEntity(entries);
  const rows = new Float64Array(entries.length * FIELDS);
  const runs = new Int32Array(groups.size + 1);
  const entities: string[] = [];
  let i = 0;
  for (const [entityId, list] of groups) {
    runs[entities.push(entityId) - 1] = i;
    for (const a of list) {
      rows[i * FIELDS] = a.at;
      rows[i * FIELDS + 1] = a.matched;
      rows[i * FIELDS + 2] = a.rebates;
      rows[i * FIELDS + 3] = a.fees;
      i++;
    }
  }
  runs[entities.length] = i;
  return { entities, runs, rows };
}

/** Each entity's row as the file keeps it: [entityId, first entry's at, the entries' JSON rows]. */
export function activityRows(p: PackedActivity): [string, number, string][] {
  const out: [string, number, string][] = [];
  p.entities.forEach((entityId, e) => {
    const list: number[][] = [];
    for (let i = p.runs[e] as number; i < (p.runs[e + 1] as number); i++)
      list.push(Array.from(p.rows.subarray(i * FIELDS, (i + 1) * FIELDS)));
    out.push([entityId, (list[0] as number[])[0] as number, JSON.stringify(list)]);
  });
  return out;
}
