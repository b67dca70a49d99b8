/**
 * The fuzz driver's restore family: POST /_sim/restore with one mutation per case of a real
 * busy-market snapshot (a simulator of its own, manual clock, fixed seed, ~12 auctions cleared).
 * Cases run one at a time, so the before/after comparison races with nothing: after a refusal
 * GET /_sim/state and the full snapshot must be byte-identical to the baseline; after an accepted
 * restore a few ordinary requests must still answer without a 5xx, then the original is put back.
 */
import { seededRandom } from './chaos/support.js';
import {
  Asker,
  type FamilyReport,
  JSON_HEADERS,
  isJsonError,
  jsonBody,
  newFamilyReport,
  note,
  type SimulatorModule,
  watchingCrashes,
} from './fuzz-family.js';
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
import type { RawOutcome } from './raw-http.js';

export interface RestoreFamilyOptions {
  cases: number;
  seed: number;
  timeoutMs: number;
  deadline: number;
  /** Auctions cleared before the snapshot is taken. Default 12 (a ~2.9 MB document). */
  clears?: number;
}

type Doc = Record<string, unknown>;
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
export function restoreCase(doc: Doc, original: string, seed: number, index: number): [string, string] {
  if (index === 0) return ['the snapshot as taken', original];
  const p = new Pick(seededRandom((seed * 0x85ebca6b) ^ (index * 0x27d4eb2f) ^ 0x5e5702e));
  // The first cases take each kind in turn, so that even a short run covers every one of them.
  const early = EARLY[index - 1];
  if (early) return label(targetedMutation(doc, p, ...early));
  if (index <= EARLY.length + GENERIC_KINDS)
    return label(genericMutation(doc, p, STATE, index - EARLY.length - 1));
  const roll = p.r();
  if (roll < 0.05) {
    const [label, text] = p.one<[string, string]>([
      ['not an object', p.one(['[]', '"snapshot"', 'null', '42', 'true'])],
      ['truncated text', original.slice(0, p.int(original.length))],
      ['empty object', '{}'],
    ]);
    return [label, text];
  }
  return label(roll < 0.5 ? targetedMutation(doc, p) : genericMutation(doc, p, p.chance(0.7) ? STATE : []));
}

const label = ([what, mutated]: [string, unknown]): [string, string] => [what, documentText(mutated)];

function later(r: FamilyReport, index: number, label: string, what: string, got: RawOutcome): void {
  if (typeof got === 'object' && got.status < 500) return;
  const outcome = typeof got === 'object' ? String(got.status) : got;
  note(r, 'laterFailures', `${index} ${label} -> ${what}: ${outcome}`);
}

export async function runRestoreFamily(mod: SimulatorModule, o: RestoreFamilyOptions): Promise<FamilyReport> {
  const r = newFamilyReport();
  const started = Date.now();
  const logged: string[] = [];
  const sim = mod.createSimulator({
    market: 'busy',
    clock: 'manual',
    seed: 11,
    startTime: '2026-01-05T09:00:00Z',
    logger: {
      info: () => undefined,
      error: (message, err) => logged.push(`${message}: ${String(err).slice(0, 200)}`),
    },
    fetch: async () => new Response(null, { status: 200 }),
  });
  for (let i = 0; i < (o.clears ?? 12); i++) sim.clearAuction();
  const original = JSON.stringify(sim.snapshot());
  const doc = JSON.parse(original) as Doc;
  const putBack = () => sim.restore(JSON.parse(original));
  putBack();
  const running = await sim.listen({ host: '127.0.0.1', port: 0 });
  const asker = new Asker(Number(new URL(running.url).port), o.timeoutMs);
  const stateText = async () => {
    const got = await asker.ask('GET', '/_sim/state');
    return typeof got === 'object' ? got.body.toString('utf8') : `(${got})`;
  };
  const baselineState = await stateText();
  const baselineSnapshot = JSON.stringify(sim.snapshot());
  const key = mod.SEEDED.burner.apiKey;
  const oneCase = async (index: number, label: string, text: string, at: string) => {
    const got = await asker.ask('POST', '/_sim/restore', JSON_HEADERS, text);
    if (typeof got !== 'object') {
      note(r, got === 'timeout' ? 'stalled' : 'closedUnanswered', `${at} -> ${got}`);
    } else {
      r.byStatus[got.status] = (r.byStatus[got.status] ?? 0) + 1;
      if (got.status >= 500) note(r, 'serverErrors', `${at} -> ${got.status}`);
      else if (got.status === 413) r.tooLarge++;
      else if (got.status >= 400) r.refused++;
      else r.accepted++;
      if (got.status >= 400 && !isJsonError(got))
        note(r, 'nonJsonErrors', `${at} -> ${got.status} ${got.body.subarray(0, 80).toString('utf8')}`);
      if (got.status === 400) {
        const body = jsonBody(got) ?? {};
        const errors = Array.isArray(body.errors) ? (body.errors as { location?: unknown }[]) : [];
        const where =
          typeof body.field === 'string' || errors.some((e) => typeof e?.location === 'string' && e.location);
        if (body.code !== 2 || !where)
          note(r, 'badRefusals', `${at} -> ${got.body.subarray(0, 200).toString('utf8')}`);
      }
    }
    if (index === 0 && (typeof got !== 'object' || got.status !== 200))
      note(r, 'originalRefused', `${at} -> ${typeof got === 'object' ? got.status : got}`);
    if (typeof got !== 'object' || got.status !== 200) {
      const state = await stateText();
      const snapshotSame = JSON.stringify(sim.snapshot()) === baselineSnapshot;
      if (state !== baselineState || !snapshotSame) {
        const what = state !== baselineState ? 'GET /_sim/state differs' : 'the snapshot differs';
        note(
          r,
          'stateChangedAfterRefusal',
          `${at} -> ${typeof got === 'object' ? got.status : got}, ${what}`,
        );
        putBack();
      }
      return;
    }
    // Accepted: the simulator must go on answering as a simulator, not fail on what it took in.
    const broken = mod.checkInvariants(sim.engine);
    if (broken.length) note(r, 'acceptedBreakingInvariants', `${at} -> ${broken[0]}`);
    later(r, index, label, 'GET /_sim/state', await asker.ask('GET', '/_sim/state'));
    later(r, index, label, 'GET /_sim/auctions/current', await asker.ask('GET', '/_sim/auctions/current'));
    later(
      r,
      index,
      label,
      'POST /_sim/auctions/clear',
      await asker.ask('POST', '/_sim/auctions/clear', JSON_HEADERS, '{}'),
    );
    const auth = { authorization: `Bearer ${key}` };
    later(r, index, label, 'GET /v1/match/account', await asker.ask('GET', '/v1/match/account', auth));
    later(r, index, label, 'GET /_sim/orders', await asker.ask('GET', '/_sim/orders?limit=50'));
    const own = await asker.ask('POST', '/_sim/snapshot');
    later(r, index, label, 'POST /_sim/snapshot', own);
    // Every snapshot the simulator makes restores: the one of what it accepted included.
    if (typeof own === 'object' && own.status === 200) {
      try {
        sim.restore(JSON.parse(own.body.toString('utf8')));
      } catch (err) {
        note(r, 'laterFailures', `${at} -> its own snapshot (POST /_sim/snapshot) refused: ${String(err)}`);
      }
    }
    try {
      putBack();
    } catch (err) {
      note(r, 'crashes', `${at} -> the original snapshot no longer restores: ${String(err)}`);
    }
    if ((await stateText()) !== baselineState)
      note(r, 'crashes', `${at} -> the original snapshot restored, but GET /_sim/state is not as before`);
  };
  await watchingCrashes(r, async () => {
    for (let index = 0; index < o.cases; index++) {
      if (Date.now() > o.deadline) {
        r.truncated = true;
        break;
      }
      const [label, text] = restoreCase(doc, original, o.seed, index);
      const at = `${index} ${label} (${text.length} bytes)`;
      r.sent++;
      try {
        await oneCase(index, label, text, at);
      } catch (err) {
        // The driver's own in-process reads (the snapshot, the invariants) failed on what was taken in.
        note(
          r,
          'crashes',
          `${at} -> ${err instanceof Error ? err.stack?.split('\n').slice(0, 2).join(' ') : String(err)}`,
        );
        putBack();
      }
    }
  });
  // The server must still be alive and answering after all of it.
  const alive = await asker.ask('GET', '/_sim/state');
  if (typeof alive !== 'object' || alive.status !== 200)
    note(r, 'crashes', `server not answering at the end: ${String(alive)}`);
  asker.close();
  await running.close();
  await sim.close();
  r.loggedErrors = logged.length;
  if (logged.length) r.examples.loggedErrors = logged.slice(0, 5);
  r.elapsedMs = Date.now() - started;
  return r;
}
