/**
 * The restore family's cases (bench/fuzz-restore.ts): one mutation per case of a real busy-market
 * snapshot, seeded per case; the first cases take each kind in turn. Case 0 is the snapshot as taken.
 */
import { seededRandom } from './chaos/support.js';
import {
  changeAt,
  GENERIC_KINDS,
  documentText,
  genericMutation,
  getAt,
  NEGATIVE_ZERO,
  type Path,
  setAt,
  strangerId,
} from './fuzz-doc.js';
import { Pick } from './fuzz-pick.js';
import { asVersion1 } from './fuzz-snapshot-forms.js';

export type Doc = Record<string, unknown>;
const STATE: Path = ['engine', 'state'];
const ENTITY_ARRAYS = ['entities', 'wallets', 'fiatAccounts', 'orders', 'auctions', 'withdrawals', 'wires'];

/** Two distinct indexes of the array at `path` (undefined when it has fewer than two items). */
function two(doc: Doc, path: Path, p: Pick): [number, number] | undefined {
  const n = (getAt(doc, path) as unknown[] | undefined)?.length ?? 0;
  if (n < 2) return undefined;
  const i = p.int(n);
  return [i, (i + 1 + p.int(n - 1)) % n];
}

const idKey = (item: unknown): string =>
  item && typeof item === 'object' && 'orderId' in item
    ? 'orderId'
    : item && typeof item === 'object' && 'auctionId' in item && !('id' in item)
      ? 'auctionId'
      : 'id';

/** The index in `collection` of the wallet/bank account a pending order draws on (seeded pick). */
function heldByPending(doc: Doc, collection: string, p: Pick): number | undefined {
  const field = { wallets: 'sourceWalletId', fiatAccounts: 'fiatAccountId' }[collection];
  if (!field) return undefined;
  const orders = (getAt(doc, [...STATE, 'orders']) as Record<string, unknown>[] | undefined) ?? [];
  const pending = orders.filter((o) => o.status === 'pending' && typeof o[field] === 'string');
  if (!pending.length) return undefined;
  const id = p.one(pending)[field];
  const items = (getAt(doc, [...STATE, collection]) as { id?: unknown }[] | undefined) ?? [];
  const i = items.findIndex((item) => item.id === id);
  return i < 0 ? undefined : i;
}

/** The snapshot-specific changes: duplicates, dangling references, swaps, format and version. */
const TARGETED_KINDS = 9;

/**
 * The first cases, in turn: each kind once, the duplicate id once per referenced collection (a
 * wallet or bank account two entities claim is what a later clear trips over), each reference kind.
 */
const EARLY: [number, string?][] = [
  [0, 'wallets'],
  [0, 'fiatAccounts'],
  [0, 'orders'],
  [1],
  [2, 'entities'],
  [3, 'orders'],
  [4],
  [5],
  [6],
  [7],
  [8],
];

function targetedMutation(doc: Doc, p: Pick, kind?: number, only?: string): [string, unknown] {
  const arrays = ENTITY_ARRAYS.filter((k) => ((getAt(doc, [...STATE, k]) as unknown[]) ?? []).length > 1);
  const array: Path = [...STATE, only ?? p.one(arrays.length ? arrays : ['entities'])];
  switch (kind ?? p.int(TARGETED_KINDS)) {
    case 0: {
      const pair = two(doc, array, p);
      if (!pair) return ['no pair', doc];
      // A wallet or bank account a resting order draws on, when there is one, loses its id.
      pair[0] = heldByPending(doc, String(array.at(-1)), p) ?? pair[0];
      if (pair[0] === pair[1]) pair[1] = (pair[1] + 1) % (getAt(doc, array) as unknown[]).length;
      const key = idKey(getAt(doc, [...array, pair[0]]));
      const [i, j] = pair;
      return [
        `duplicate ${key} ${array.at(-1)}[${i}] = [${j}]`,
        setAt(doc, [...array, i, key], getAt(doc, [...array, j, key])),
      ];
    }
    case 1: {
      const pair = two(doc, [...STATE, 'entities'], p);
      if (!pair) return ['no pair', doc];
      const [i, j] = pair;
      const from = getAt(doc, [...STATE, 'entities', j, 'apiKey']);
      return [
        `duplicate apiKey entities[${i}] = [${j}]`,
        setAt(doc, [...STATE, 'entities', i, 'apiKey'], from),
      ];
    }
    case 2: {
      const pair = two(doc, array, p);
      if (!pair) return ['no pair', doc];
      const [i, j] = pair;
      const key = idKey(getAt(doc, [...array, i]));
      const a = getAt(doc, [...array, i, key]);
      const b = getAt(doc, [...array, j, key]);
      return [
        `swap ${key} ${array.at(-1)}[${i}] <-> [${j}]`,
        setAt(setAt(doc, [...array, i, key], b), [...array, j, key], a),
      ];
    }
    case 3: {
      // A reference (an `…Id`/`…Ids` field anywhere under the state) to an id nothing holds.
      const items = getAt(doc, array) as Record<string, unknown>[];
      const i = p.int(items.length);
      const refs = Object.keys(items[i] ?? {}).filter((k) => /Ids?$/.test(k) && k !== idKey(items[i]));
      if (!refs.length) return ['no reference', doc];
      const key = p.one(refs);
      const value = Array.isArray(items[i]?.[key]) ? [strangerId(p)] : strangerId(p);
      return [`dangling ${array.at(-1)}[${i}].${key}`, setAt(doc, [...array, i, key], value)];
    }
    case 4: {
      const byEntity = [...STATE, 'ordersByEntity'];
      const keys = Object.keys((getAt(doc, byEntity) as object) ?? {});
      if (!keys.length) return ['no ordersByEntity', doc];
      const key = p.one(keys);
      const stranger = strangerId(p);
      return [
        `ordersByEntity key ${key.slice(0, 8)} -> stranger`,
        changeAt(doc, byEntity, (c) => {
          const o = c as Record<string, unknown>;
          o[stranger] = o[key];
          delete o[key];
        }),
      ];
    }
    case 5: {
      const [field, value] = p.one<[string, unknown]>([
        ['format', p.one(['match-venue-sim-snapshot-2', '', null, 1, 'MATCH-VENUE-SIM-SNAPSHOT'])],
        ['version', p.one([0, 2, '1', 1.5, -1, null, 2 ** 53 - 1, NEGATIVE_ZERO])],
      ]);
      return [`${field} = ${JSON.stringify(value)}`, setAt(doc, [field], value)];
    }
    case 6: {
      const field = p.one(['currentAuctionId', 'settlingAuctionId', 'lastClearedAuctionId']);
      const value = p.one([0, -1, 1, 999_999, 2 ** 53 - 1, null, 1.5]);
      return [`${field} = ${value}`, setAt(doc, [...STATE, field], value)];
    }
    case 7: {
      const field = p.one(['cycleMs', 'lockMs', 'settleMs', 'maxOrdersPerAuction', 'transactionLimitCents']);
      const value = p.one([0, -1, 1, 2 ** 53 - 1, 1e308, 0.5]);
      return [`config.${field} = ${value}`, setAt(doc, ['config', field], value)];
    }
    default: {
      const where = p.one<Path>([
        ['clock', 'now'],
        ['engine', 'time'],
        ['seed'],
        ['engine', 'random'],
        ['market'],
      ]);
      const value = p.one([-1, 0, 2 ** 53 - 1, 8.64e15 + 1, 1e308, null, 'now']);
      return [`${where.join('.')} = ${value}`, setAt(doc, where, value)];
    }
  }
}

/** Case `index`'s body: case 0 is the snapshot as taken (the control), then one mutation each. */
export function restoreCase(compact: Doc, original: string, seed: number, index: number): [string, string] {
  if (index === 0) return ['the snapshot as taken', original];
  // Targeted cases read orders as objects (version 1); generic ones take either form in turn.
  const doc = asVersion1(compact);
  const p = new Pick(seededRandom((seed * 0x85ebca6b) ^ (index * 0x27d4eb2f) ^ 0x5e5702e));
  // The first cases take each kind in turn, so that even a short run covers every one of them.
  const early = EARLY[index - 1];
  if (early) return label(targetedMutation(doc, p, ...early));
  if (index <= EARLY.length + GENERIC_KINDS)
    return label(genericMutation(index % 2 ? compact : doc, p, STATE, index - EARLY.length - 1));
  const roll = p.r();
  if (roll < 0.05) {
    const [label, text] = p.one<[string, string]>([
      ['not an object', p.one(['[]', '"snapshot"', 'null', '42', 'true'])],
      ['truncated text', original.slice(0, p.int(original.length))],
      ['empty object', '{}'],
    ]);
    return [label, text];
  }
  if (roll < 0.5) return label(targetedMutation(doc, p));
  return label(genericMutation(p.chance(0.5) ? compact : doc, p, p.chance(0.7) ? STATE : []));
}

const label = ([what, mutated]: [string, unknown]): [string, string] => [what, documentText(mutated)];
