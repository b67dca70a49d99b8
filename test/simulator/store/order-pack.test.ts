import { describe, expect, it } from 'vitest';
import type { Auction, Order } from '../../../src/simulator/engine/types.js';
import { BUCKETS, bucketRows, idKey, offsetsOf } from '../../../src/simulator/store/id-buckets.js';
import { hashes } from '../../../src/simulator/store/id-filter.js';
import { chunkRows, entityChunks, packBuffers, packOrders } from '../../../src/simulator/store/order-pack.js';
import { groupByEntity } from '../../../src/simulator/engine/group-by.js';
import { toRow } from '../../../src/simulator/store/order-row.js';

const auction = (clearingFeeCentiBps: number | null) =>
  ({ clearingFeeCentiBps, clearedAt: 1_767_225_610_000 }) as Auction;

function order(n: number, patch: Partial<Order> = {}): Order {
  return {
    orderId: `00000001-0000-4000-a${String(n).padStart(3, '0')}-6d61726b6574`,
    entityId: `ent_${n % 3}`,
    auctionId: 100 + n,
    orderType: n % 2 ? 'BURN' : 'MINT',
    amountCents: 1_000_00 + n,
    feeBps: n % 4 ? `${n}.25` : null,
    limitCentiBps: null,
    postFillAction: n % 5 ? 'roll' : 'cancel',
    // Every final status, in turns that differ from the other fields' (a field's last word is kept).
    status: (['filled', 'partial_fill', 'unfilled', 'cancelled', 'failed'] as const)[n % 5],
    createdAt: 1_767_225_600_000 + n,
    updatedAt: 1_767_225_620_000 + n,
    sourceWalletId: n % 2 ? `wal_${n % 3}` : null,
    fiatAccountId: n % 2 ? `fia_${n % 3}` : null,
    parentOrderId: n % 3 ? null : `parent-${n}`,
    childOrderId: n % 7 ? null : `child-${n}`,
    clearedIn: n % 6 ? auction(525 + n) : null,
    filledCents: n * 10,
    feeCents: n,
    placedLimitCentiBps: n % 4 ? n * 100 + 25 : null,
    ...patch,
  } as Order;
}

describe('order pack: what the simulator thread hands the writer thread', () => {
  it('makes a chunk per entity whose rows are the ones toRow makes: nulls, cleared or not, any text', () => {
    const orders = Array.from({ length: 60 }, (_, n) => order(n));
    // Edge cases: a clear with no fee, an empty id, non-ASCII and astral text, a text longer than
    // the buffer's first size, a zero amount.
    orders.push(
      order(60, { clearedIn: auction(null) }),
      order(61, { orderId: '', parentOrderId: 'élan-ünïcode', childOrderId: '😀 astral' }),
      order(62, { childOrderId: 'x'.repeat(10_000), sourceWalletId: 'wal_ø', amountCents: 0 }),
      // Lone surrogates (not well-formed UTF-16: UTF-8 would replace them), as an id and a parent.
      order(63, { orderId: 'lone-\ud800-high', parentOrderId: '\udc00low' }),
    );
    const chunks = entityChunks(packOrders(orders));
    const expected = [...groupByEntity(orders)].map(([entityId, list]) => ({
      entityId,
      firstAt: Math.min(...list.map((o) => o.createdAt)),
      lastAt: Math.max(...list.map((o) => o.createdAt)),
      idHashes: Uint32Array.from(list.flatMap((o) => [...hashes(o.orderId)])),
      rows: list.map(toRow),
    }));
    const got = chunks.map(({ bytes, ...c }) => ({ ...c, rows: chunkRows(bytes) }));
    expect(got).toEqual(expected);
    // JSON text equal too (null, not NaN or undefined, where toRow has null).
    expect(JSON.stringify(got)).toBe(JSON.stringify(expected));
    // Read from a blob that is not 8-byte aligned, as SQLite may hand it.
    const blob = (chunks[0] as { bytes: Uint8Array }).bytes;
    const unaligned = new Uint8Array(blob.length + 3).subarray(3);
    unaligned.set(blob);
    expect(chunkRows(unaligned)).toEqual(expected[0]?.rows);
  });

  it('moves its buffers: after the transfer the simulator thread keeps no copy', () => {
    const packed = packOrders([order(1), order(2)]);
    const { port1, port2 } = new MessageChannel();
    port1.postMessage(packed, packBuffers(packed));
    expect(packed.numbers.byteLength).toBe(0);
    expect(packed.text.byteLength).toBe(0);
    port1.close();
    port2.close();
  });

  it('packs nothing as an empty batch', () => {
    expect(entityChunks(packOrders([]))).toEqual([]);
  });
});

describe('id buckets: from an order id to its chunk', () => {
  it('finds every id at its chunk offset, in its bucket, and nothing for others', () => {
    const ids = Array.from({ length: 5000 }, (_, n) => `id-${n}`);
    const offsets = ids.map((_, n) => n % 37);
    const rows = new Map(
      bucketRows(
        ids.map((id) => hashes(id)[1]),
        offsets,
      ),
    );
    expect(rows.size).toBe(BUCKETS);
    ids.forEach((id, n) => {
      const { hash, bucket } = idKey(id);
      expect(offsetsOf(rows.get(bucket) as Uint8Array, hash)).toContain(offsets[n]);
    });
    const { hash, bucket } = idKey('never-written');
    expect(offsetsOf(rows.get(bucket) as Uint8Array, hash)).toEqual([]);
  });

  it('names every chunk of ids that share a hash (the reader then finds the id itself)', () => {
    // A row with hash 7 at offsets 2 and 5, between others, as bucketRows writes them.
    const row = new Uint8Array(new Uint32Array([3, 0, 7, 2, 7, 5, 9, 1]).buffer);
    expect(offsetsOf(row, 7)).toEqual([2, 5]);
    expect(offsetsOf(row, 8)).toEqual([]);
    // Read from a blob that is not 4-byte aligned, as SQLite may hand it.
    const unaligned = new Uint8Array(row.length + 1).subarray(1);
    unaligned.set(row);
    expect(offsetsOf(unaligned, 9)).toEqual([1]);
  });
});
