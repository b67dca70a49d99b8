/**
 * `items` grouped by `key`, each group in the items' order, the groups in first-seen order.
 * Items of one key mostly come in runs (an auction's orders, an entity's entries), so the group of
 * the last key is kept at hand rather than looked up again.
 */
export function groupBy<T, K>(
  items: readonly T[],
  key: (item: T) => K,
  groups: Map<K, T[]> = new Map(),
): Map<K, T[]> {
  let lastKey: K | undefined;
  let last: T[] | undefined;
  for (const item of items) {
    const k = key(item);
    if (last === undefined || k !== lastKey) {
      lastKey = k;
      last = groups.get(k);
      if (last === undefined) {
        last = [];
        groups.set(k, last);
      }
    }
    last.push(item);
  }
  return groups;
}

/** Items by entity, each entity's in their order (an eviction's orders and activity entries). */
export const groupByEntity = <T extends { entityId: string }>(
  items: readonly T[],
  into?: Map<string, T[]>,
): Map<string, T[]> => groupBy(items, (item) => item.entityId, into);
