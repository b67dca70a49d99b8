import { describe, expect, it } from 'vitest';
import type { ActivityEntry } from '../../../src/simulator/engine/account.js';
import { activityRows, packActivity } from '../../../src/simulator/store/activity-pack.js';
import { groupByEntity } from '../../../src/simulator/engine/group-by.js';

const entry = (entityId: string, at: number, n: number): ActivityEntry => ({
  entityId,
  at,
  matched: n * 1_000_00,
  rebates: n * 7,
  fees: n === 3 ? 0 : n * 13 + 0.5,
});

describe('activity pack: what the simulator thread hands the writer thread', () => {
  it('makes each entity the row text the file keeps, entities in the order they come', () => {
    const entries = [
      entry('ent_b', 1_767_225_600_000, 1),
      entry('ent_a', 1_767_225_600_000, 2),
      entry('ent_b', 1_767_225_610_000, 3),
      entry('ent_c', 1_767_225_620_000, 4),
      entry('ent_a', 1_767_225_630_000, 5),
      entry('ent_b', 1_767_225_640_000, Number.MAX_SAFE_INTEGER / 1_000_00),
    ];
    // As the store wrote them before: per entity, [at, matched, rebates, fees] rows as JSON.
    const expected = [...groupByEntity(entries)].map(([entityId, list]) => [
      entityId,
      (list[0] as ActivityEntry).at,
      JSON.stringify(list.map((a) => [a.at, a.matched, a.rebates, a.fees])),
    ]);
    expect(activityRows(packActivity(entries))).toEqual(expected);
    expect(activityRows(packActivity([]))).toEqual([]);
  });

  it('moves its numbers: after the transfer the simulator thread keeps no copy', () => {
    const packed = packActivity([entry('ent_a', 1, 1), entry('ent_b', 2, 2)]);
    const { port1, port2 } = new MessageChannel();
    port1.postMessage(packed, [packed.rows.buffer as ArrayBuffer]);
    expect(packed.rows.byteLength).toBe(0);
    port1.close();
    port2.close();
  });
});
