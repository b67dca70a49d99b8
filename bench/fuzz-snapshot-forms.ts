/**
 * The two forms a snapshot restores from (docs/MARKET.md, Snapshots): version 2, what the simulator
 * writes (orders as rows under `columns`, account ids as indexes into `ids`, the order lists left
 * out where the orders imply them), and version 1 (one object per order, every list written). The
 * restore family mutates both: the targeted cases need orders as objects to find what they point at.
 * Read from the document's own `columns`, so no copy of the simulator's column list lives here.
 */
type Doc = Record<string, unknown>;
const TABLED = new Set(['entityId', 'sourceWalletId', 'fiatAccountId']);

/** `doc` in the version 1 form (a version 1 document, or anything unexpected, comes back as it is). */
export function asVersion1(doc: Doc): Doc {
  const engine = doc.engine as Doc | undefined;
  const state = engine?.state as Doc | undefined;
  const compact = state?.orders as { columns?: string[]; ids?: string[]; rows?: unknown[][] } | undefined;
  if (doc.version !== 2 || !state || !compact?.columns || !compact.ids || !compact.rows) return doc;
  const { columns, ids, rows } = compact;
  const orders = rows.map((row) =>
    Object.fromEntries(
      columns.map((name, i) => [name, TABLED.has(name) && row[i] !== null ? ids[row[i] as number] : row[i]]),
    ),
  );
  const entities = (state.entities as { id: string }[]) ?? [];
  const byEntity: Record<string, string[]> = Object.fromEntries(entities.map((e) => [e.id, []]));
  const byAuction = new Map<number, string[]>();
  for (const o of orders as { orderId: string; entityId: string; auctionId: number }[]) {
    byEntity[o.entityId]?.push(o.orderId);
    byAuction.set(o.auctionId, [...(byAuction.get(o.auctionId) ?? []), o.orderId]);
  }
  const auctions = (state.auctions as Doc[]).map((a) =>
    'orders' in a ? a : { ...a, orders: byAuction.get(a.auctionId as number) ?? [] },
  );
  const ordersByEntity = state.ordersByEntity ?? byEntity;
  return { ...doc, version: 1, engine: { ...engine, state: { ...state, orders, ordersByEntity, auctions } } };
}
