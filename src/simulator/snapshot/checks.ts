/**
 * The checks a snapshot document passes after its shape (snapshot/schema.ts) and before any engine
 * is built from it: every reference resolves, ids and API keys are unique, phases agree with the
 * auctions named current and settling, reservations stay within balances. A document edited by
 * hand that broke one of these used to be accepted and then answer 500 on the next clear or read
 * (issue 33); now it is refused with the JSON path and the rule. What is left (money conserved,
 * reservations equal to what the book holds) is the invariant checker's, run on the candidate
 * engine (snapshot/document.ts).
 */
import { parseCentiBps } from '../engine/money.js';
import type { CheckedDocument } from './schema.js';

/** A rule a document broke: where (a JSON path under the document) and what the rule is. */
export class DocumentRuleError extends RangeError {
  constructor(
    readonly path: string,
    rule: string,
  ) {
    super(`${path} ${rule}`);
  }
}

type State = CheckedDocument['engine']['state'];
type Order = State['orders'][number];

const P = 'engine.state';

function refuse(path: string, rule: string): never {
  throw new DocumentRuleError(path, rule);
}

/** Own keys only: a record read from JSON may name `constructor` or `__proto__`. */
const own = (record: object, key: string) => Object.hasOwn(record, key);

/** Indexes `items` by `key`, refusing a repeated one at its path. */
function unique<T>(
  items: readonly T[],
  key: (item: T) => string | number | null,
  path: string,
  field: string,
) {
  const byKey = new Map<string | number, T>();
  items.forEach((item, i) => {
    const k = key(item);
    if (k === null) return;
    if (byKey.has(k)) refuse(`${path}.${i}.${field}`, `must be unique; ${JSON.stringify(k)} appears twice`);
    byKey.set(k, item);
  });
  return byKey;
}

/** Throws a DocumentRuleError for the first rule `d` breaks. */
export function checkDocumentRules(d: CheckedDocument): void {
  const s = d.engine.state;
  if (d.config.lockMs >= d.config.cycleMs) refuse('config.lockMs', 'must be shorter than config.cycleMs');
  const entities = unique(s.entities, (e) => e.id, `${P}.entities`, 'id');
  unique(s.entities, (e) => e.accountId, `${P}.entities`, 'accountId');
  unique(s.entities, (e) => e.apiKey, `${P}.entities`, 'apiKey');
  const wallets = unique(s.wallets, (w) => w.id, `${P}.wallets`, 'id');
  const fiats = unique(s.fiatAccounts, (f) => f.id, `${P}.fiatAccounts`, 'id');
  const entity = (id: string, path: string) =>
    entities.get(id) ?? refuse(path, `names entity ${id}, not in ${P}.entities`);

  // Accounts point at their entity, and the entity lists them back.
  s.wallets.forEach((w, i) => {
    const e = entity(w.entityId, `${P}.wallets.${i}.entityId`);
    if (!e.walletIds.includes(w.id))
      refuse(`${P}.wallets.${i}`, `is not listed in entity ${e.id}'s walletIds`);
    if (w.reservedCents > w.balanceCents)
      refuse(`${P}.wallets.${i}.reservedCents`, 'must not exceed balanceCents');
  });
  s.fiatAccounts.forEach((f, i) => {
    const e = entity(f.entityId, `${P}.fiatAccounts.${i}.entityId`);
    if (!e.fiatAccountIds.includes(f.id))
      refuse(`${P}.fiatAccounts.${i}`, `is not listed in entity ${e.id}'s fiatAccountIds`);
  });
  s.entities.forEach((e, i) => {
    const at = `${P}.entities.${i}`;
    e.walletIds.forEach((w, j) => {
      if (wallets.get(w)?.entityId !== e.id)
        refuse(`${at}.walletIds.${j}`, `must name a wallet of this entity in ${P}.wallets`);
    });
    e.fiatAccountIds.forEach((f, j) => {
      if (fiats.get(f)?.entityId !== e.id)
        refuse(`${at}.fiatAccountIds.${j}`, `must name a fiat account of this entity in ${P}.fiatAccounts`);
    });
    // MINT fills and fallbacks pay into the first USD wallet (state.ts primaryWallet).
    if (e.hasAccount && !e.walletIds.some((w) => wallets.get(w)?.currency === 'USD'))
      refuse(`${at}.walletIds`, 'must hold a USD wallet when hasAccount is true');
    if (e.venueReservedCents + e.withdrawalHeldCents > e.venueBalanceCents)
      refuse(`${at}.venueReservedCents`, 'plus withdrawalHeldCents must not exceed venueBalanceCents');
    for (const [name, record] of [
      ['ordersByEntity', s.ordersByEntity],
      ['exposure', s.exposure],
      ['activity', s.activity],
    ] as const)
      if (!own(record, e.id)) refuse(`${P}.${name}`, `must have an entry for entity ${e.id}`);
  });
  for (const name of ['ordersByEntity', 'exposure', 'activity'] as const)
    for (const key of Object.keys(s[name])) entity(key, `${P}.${name}.${key}`);
  for (const [key, log] of Object.entries(s.activity)) {
    const n = log.at.length + 1;
    if (log.matched.length !== n || log.rebates.length !== n || log.fees.length !== n)
      refuse(`${P}.activity.${key}`, 'must hold prefix sums one longer than at');
    for (let j = 1; j < log.at.length; j++)
      if ((log.at[j] as number) < (log.at[j - 1] as number))
        refuse(`${P}.activity.${key}.at.${j}`, 'must not be earlier than the time before it');
  }

  const auctions = unique(s.auctions, (a) => a.auctionId, `${P}.auctions`, 'auctionId');
  const orders = unique(s.orders, (o) => o.orderId, `${P}.orders`, 'orderId');
  checkAuctions(s, auctions, entity);
  const lookups = { entity, auctions, wallets, fiats };
  for (const [i, o] of s.orders.entries()) {
    checkOrder(o, `${P}.orders.${i}`, s, lookups);
    checkLineage(o, `${P}.orders.${i}`, orders);
  }

  // Each order is listed once, under its own entity; an auction lists only its own orders.
  const listed = new Set<string>();
  for (const [key, list] of Object.entries(s.ordersByEntity))
    for (const [j, id] of list.entries()) {
      const at = `${P}.ordersByEntity.${key}.${j}`;
      const o = orders.get(id) ?? refuse(at, `names order ${id}, not in ${P}.orders`);
      if (o.entityId !== key) refuse(at, `names order ${id} of another entity`);
      if (listed.has(id)) refuse(at, `names order ${id} twice`);
      listed.add(id);
    }
  if (listed.size !== s.orders.length)
    refuse(
      `${P}.ordersByEntity`,
      `must list every order of ${P}.orders (lists ${listed.size} of ${s.orders.length})`,
    );
  const inBook = new Set<string>();
  for (const [i, a] of s.auctions.entries())
    for (const [j, id] of a.orders.entries()) {
      const at = `${P}.auctions.${i}.orders.${j}`;
      const o = orders.get(id) ?? refuse(at, `names order ${id}, not in ${P}.orders`);
      if (o.auctionId !== a.auctionId) refuse(at, `names order ${id} of auction ${o.auctionId}`);
      if (inBook.has(id)) refuse(at, `names order ${id} twice`);
      inBook.add(id);
    }
  checkBook(s, inBook);
  for (const [i, id] of s.fallbacks.entries())
    if (!orders.has(id)) refuse(`${P}.fallbacks.${i}`, `names order ${id}, not in ${P}.orders`);
  checkWithdrawals(s, entity, fiats);
  s.wires.forEach((w, i) => {
    entity(w.entityId, `${P}.wires.${i}.entityId`);
    if (fiats.get(w.fiatAccountId)?.entityId !== w.entityId)
      refuse(`${P}.wires.${i}.fiatAccountId`, "must name a fiat account of the wire's entity");
  });
  if (new Set<string>(s.fallbacks).size !== s.fallbacks.length)
    refuse(`${P}.fallbacks`, 'must name each order once');
  checkMoneyRange(s);
}

function checkAuctions(
  s: State,
  auctions: Map<string | number, State['auctions'][number]>,
  entity: Lookups['entity'],
): void {
  const current = auctions.get(s.currentAuctionId);
  if (!current) refuse(`${P}.currentAuctionId`, `names auction ${s.currentAuctionId}, not in ${P}.auctions`);
  if (current.phase !== 'open' && current.phase !== 'lock')
    refuse(
      `${P}.currentAuctionId`,
      `must name an open or locked auction; auction ${current.auctionId} is ${current.phase}`,
    );
  if (s.settlingAuctionId !== null && auctions.get(s.settlingAuctionId)?.phase !== 'settling')
    refuse(`${P}.settlingAuctionId`, `must name an auction in ${P}.auctions whose phase is settling`);
  if (s.lastClearedAuctionId !== null && auctions.get(s.lastClearedAuctionId)?.clearedAt == null)
    refuse(`${P}.lastClearedAuctionId`, `must name an auction in ${P}.auctions that cleared`);
  s.auctions.forEach((a, i) => {
    const at = `${P}.auctions.${i}`;
    if (a.auctionId > s.currentAuctionId) refuse(`${at}.auctionId`, 'must not be after the current auction');
    if (a.auctionId === s.currentAuctionId) {
      if (a.clearedAt !== null) refuse(`${at}.clearedAt`, 'must be null in the current auction');
    } else if (a.phase !== (a.auctionId === s.settlingAuctionId ? 'settling' : 'settled'))
      refuse(
        `${at}.phase`,
        `must be ${a.auctionId === s.settlingAuctionId ? 'settling (it is settlingAuctionId)' : 'settled (it is neither current nor settling)'}`,
      );
    else if (a.clearedAt === null) refuse(`${at}.clearedAt`, 'must be set in an auction that cleared');
    if (a.clearsAt !== 'Infinity' && a.clearsAt < a.opensAt)
      refuse(`${at}.clearsAt`, 'must not be before opensAt');
    for (const key of Object.keys(a.pending)) entity(key, `${at}.pending.${key}`);
    for (const key of Object.keys(a.placed)) entity(key, `${at}.placed.${key}`);
  });
}

interface Lookups {
  entity: (id: string, path: string) => State['entities'][number];
  auctions: Map<string | number, State['auctions'][number]>;
  wallets: Map<string | number, State['wallets'][number]>;
  fiats: Map<string | number, State['fiatAccounts'][number]>;
}

function checkOrder(o: Order, at: string, s: State, l: Lookups): void {
  l.entity(o.entityId, `${at}.entityId`);
  if (!l.auctions.has(o.auctionId))
    refuse(`${at}.auctionId`, `names auction ${o.auctionId}, not in ${P}.auctions`);
  if (o.filledCents > o.amountCents) refuse(`${at}.filledCents`, 'must not exceed amountCents');
  if (
    (o.feeBps === null) !== (o.limitCentiBps === null) ||
    (o.feeBps !== null && parseCentiBps(o.feeBps) !== o.limitCentiBps)
  )
    refuse(`${at}.feeBps`, 'must agree with limitCentiBps (both null, or the same fee)');
  if (o.sourceWalletId !== null) {
    const w = l.wallets.get(o.sourceWalletId);
    if (w?.entityId !== o.entityId || w.currency !== 'USD')
      refuse(`${at}.sourceWalletId`, "must name a USD wallet of the order's entity");
  }
  if (o.fiatAccountId !== null && l.fiats.get(o.fiatAccountId)?.entityId !== o.entityId)
    refuse(`${at}.fiatAccountId`, "must name a fiat account of the order's entity");
  if (o.orderType === 'BURN' && (o.sourceWalletId === null || o.fiatAccountId === null))
    refuse(`${at}.sourceWalletId`, 'and fiatAccountId must be set on a BURN order');
  if (o.clearedIn !== null && o.clearedIn !== o.auctionId)
    refuse(`${at}.clearedIn`, 'must be null or auctionId');
  if (o.status === 'pending' && o.auctionId !== s.currentAuctionId)
    refuse(`${at}.status`, 'may be pending only in the current auction');
  if (o.status === 'settling' && o.auctionId !== s.settlingAuctionId)
    refuse(`${at}.status`, 'may be settling only in the settling auction');
}

/**
 * A roll's two orders name each other. One may be absent (evicted to a store: a store's document
 * leaves it out), but one present names the other back: a restored chain is one a roll made.
 */
function checkLineage(o: Order, at: string, orders: ReadonlyMap<string | number, Order>): void {
  const parent = o.parentOrderId === null ? undefined : orders.get(o.parentOrderId);
  if (parent && parent.childOrderId !== o.orderId)
    refuse(`${at}.parentOrderId`, `names order ${o.parentOrderId}, whose childOrderId is not this order`);
  const child = o.childOrderId === null ? undefined : orders.get(o.childOrderId);
  if (child && child.parentOrderId !== o.orderId)
    refuse(`${at}.childOrderId`, `names order ${o.childOrderId}, whose parentOrderId is not this order`);
}

/**
 * The current auction's book as clearing reads it: every resting or settling order listed in its
 * auction (one left out would hold its reservation and never clear), and the counts per entity and
 * side the self-match rule reads equal to the resting orders.
 */
function checkBook(s: State, inBook: ReadonlySet<string>): void {
  const resting = new Map<string, { BURN: number; MINT: number }>();
  for (const [i, o] of s.orders.entries()) {
    if (o.status !== 'pending' && o.status !== 'settling') continue;
    if (!inBook.has(o.orderId))
      refuse(`${P}.orders.${i}`, `is ${o.status} but its auction ${o.auctionId} does not list it`);
    if (o.status !== 'pending') continue;
    const counts = resting.get(o.entityId) ?? { BURN: 0, MINT: 0 };
    counts[o.orderType]++;
    resting.set(o.entityId, counts);
  }
  const i = s.auctions.findIndex((a) => a.auctionId === s.currentAuctionId);
  const current = s.auctions[i] as State['auctions'][number];
  for (const [entityId, n] of Object.entries(current.pending)) {
    const want = resting.get(entityId) ?? { BURN: 0, MINT: 0 };
    if (n.BURN !== want.BURN || n.MINT !== want.MINT)
      refuse(
        `${P}.auctions.${i}.pending.${entityId}`,
        `must count the entity's resting orders (BURN ${want.BURN}, MINT ${want.MINT})`,
      );
  }
  for (const entityId of resting.keys())
    if (!Object.hasOwn(current.pending, entityId))
      refuse(`${P}.auctions.${i}.pending`, `must count the resting orders of entity ${entityId}`);
}

function checkWithdrawals(s: State, entity: Lookups['entity'], fiats: Lookups['fiats']): void {
  const withdrawals = unique(s.withdrawals, (w) => w.id, `${P}.withdrawals`, 'id');
  s.withdrawals.forEach((w, i) => {
    entity(w.entityId, `${P}.withdrawals.${i}.entityId`);
    if (fiats.get(w.fiatAccountId)?.entityId !== w.entityId)
      refuse(`${P}.withdrawals.${i}.fiatAccountId`, "must name a fiat account of the withdrawal's entity");
  });
  const active = new Set<string>();
  s.activeWithdrawals.forEach((id, i) => {
    const w = withdrawals.get(id);
    if (!w) refuse(`${P}.activeWithdrawals.${i}`, `names withdrawal ${id}, not in ${P}.withdrawals`);
    if (w.status === 'completed')
      refuse(`${P}.activeWithdrawals.${i}`, `names withdrawal ${id}, which completed`);
    if (active.has(id)) refuse(`${P}.activeWithdrawals.${i}`, `names withdrawal ${id} twice`);
    active.add(id);
  });
  s.withdrawals.forEach((w, i) => {
    if (w.status !== 'completed' && !active.has(w.id))
      refuse(
        `${P}.withdrawals.${i}.status`,
        `is ${w.status} but the withdrawal is not in ${P}.activeWithdrawals`,
      );
  });
}

/** Every sum the engine and the invariant checker make must stay an exact integer. */
function checkMoneyRange(s: State): void {
  let total = Math.abs(s.house.usdCents) + Math.abs(s.house.stablecoinCents);
  total += Math.abs(s.issuer.usdCents) + Math.abs(s.issuer.stablecoinCents);
  for (const e of s.entities) total += e.venueBalanceCents;
  for (const w of s.wallets) total += w.balanceCents;
  for (const f of s.fiatAccounts) total += f.balanceCents;
  if (!(total <= Number.MAX_SAFE_INTEGER / 4))
    refuse(P, 'must hold less than 2^51 cents over all its balances and ledgers');
}
