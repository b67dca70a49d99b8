// The simulator's dashboard: a view over the control plane. Every number comes from a /_sim/
// route (state, orders, auctions, clearing reports); the event stream only says when to read
// again, so the page never polls and computes nothing the engine does not answer itself.
import { curvesChart, historyChart, isEmptyBook } from './charts.js';
import { logEvents } from './event-log.js';
import { connect } from './live.js';
import { idCell, shortIds } from './short-ids.js';

const TOKEN_KEY = 'match-venue-sim-control-token';
const $ = (id) => document.getElementById(id);
const money = (m) => (m ? `${m.amount}` : '–');

// The token lives in sessionStorage (this tab only), never in the page or a URL.
const token = () => sessionStorage.getItem(TOKEN_KEY);

async function api(path, init = {}) {
  const headers = { ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) };
  if (token()) headers['x-sim-control-token'] = token();
  const res = await fetch(path, { ...init, headers: { ...headers, ...init.headers } });
  if (res.status === 401) askForToken();
  const text = await res.text();
  const body = text ? JSON.parse(text) : {};
  if (!res.ok) throw Object.assign(new Error(body.message ?? `${res.status}`), { status: res.status });
  return body.data;
}

function askForToken() {
  $('token-form').hidden = false;
  $('conn').textContent = 'this simulator needs its control token';
}

function row(cells) {
  const tr = document.createElement('tr');
  for (const c of cells) {
    const td = document.createElement('td');
    if (c instanceof Node) td.append(c);
    else td.textContent = c ?? '–';
    tr.append(td);
  }
  return tr;
}

// ---- live state --------------------------------------------------------------------------------

const view = { clock: 'real', clearsAt: 0, offset: 0, entities: [] };
let refreshing = null;
let again = false;

/** One read of everything shown; a refresh asked for while one runs runs once after it. */
function refresh() {
  if (refreshing) {
    again = true;
    return refreshing;
  }
  refreshing = load()
    .catch((err) => showResult(`could not read the simulator: ${err.message}`, true))
    .finally(() => {
      refreshing = null;
      if (again) {
        again = false;
        refresh();
      }
    });
  return refreshing;
}

async function load() {
  const f = new URLSearchParams({ limit: '200' });
  for (const [key, id] of [
    ['entityId', 'f-entity'],
    ['side', 'f-side'],
    ['status', 'f-status'],
  ])
    if ($(id).value) f.set(key, $(id).value);
  const [state, current, orders, auctions] = await Promise.all([
    api('/_sim/state'),
    api('/_sim/auctions/current'),
    api(`/_sim/orders?${f}`),
    api('/_sim/auctions?limit=30'),
  ]);
  renderAuction(state, current);
  renderBalances(state.entities);
  renderOrders(orders);
  renderHistory(auctions);
  document.body.dataset.auction = String(state.auction.auctionId);
}

function renderAuction(state, current) {
  view.clock = state.clock;
  view.clearsAt = Date.parse(state.auction.clearsAt);
  view.offset = Date.parse(state.now) - Date.now();
  $('auction-id').textContent = state.auction.auctionId;
  $('auction-phase').textContent = state.auction.phase;
  $('indicative-fee').textContent =
    `${current.indicativeFeeBps} bps (${current.rule?.step ?? current.rule ?? ''})`;
  $('indicative-volume').textContent = `${money(current.indicativeVolume)} USD`;
  $('order-count').textContent = current.orderCount;
  $('curves').replaceChildren(
    bookChart('curves', current.curves, current.indicativeFeeBps, 'The book is empty'),
  );
  tick();
}

/** The curves, or for a book with no volume on either side a sentence saying so (not a bare axis). */
function bookChart(box, curves, feeBps, empty) {
  if (!isEmptyBook(curves)) return curvesChart(curves, feeBps, $(box).clientWidth);
  const p = document.createElement('p');
  p.className = 'empty';
  p.textContent = `${empty}: no BURN or MINT volume to chart yet (fee ${feeBps} bps).`;
  return p;
}

/** The countdown runs on the page's clock between reads, from the simulator's `now`. */
function tick() {
  if (view.clock === 'manual') {
    $('countdown').textContent = 'manual clock';
    return;
  }
  const left = Math.max(0, view.clearsAt - (Date.now() + view.offset));
  $('countdown').textContent = `${(left / 1000).toFixed(0)} s`;
}

function renderBalances(entities) {
  const names = entities.map((e) => e.name).join();
  if (names !== view.entities.map((e) => e.name).join()) fillEntitySelects(entities);
  view.entities = entities;
  $('balances-table').tBodies[0].replaceChildren(
    ...entities.map((e) => {
      const wallet = e.wallets.find((w) => w.currency !== 'EUR') ?? e.wallets[0];
      const bank = e.fiatAccounts[0];
      return row([
        e.name,
        e.fundingSide,
        money(wallet?.balance),
        money(wallet?.reserved),
        money(e.venueBalance),
        money(e.venueReserved),
        money(bank?.balance),
      ]);
    }),
  );
}

/** An entity's name, once the state read has named it. */
const nameOf = (entityId) => view.entities.find((e) => e.entityId === entityId)?.name;

function fillEntitySelects(entities) {
  for (const id of ['f-entity', 'wire-entity']) {
    const select = $(id);
    const keep = select.value;
    const options = entities.map((e) => new Option(e.name, e.entityId));
    select.replaceChildren(...(id === 'f-entity' ? [new Option('all', '')] : []), ...options);
    if (keep && options.some((o) => o.value === keep)) select.value = keep;
  }
}

function renderOrders(orders) {
  const short = shortIds(orders.flatMap((o) => [o.orderId, o.lineage.parentOrderId, o.lineage.childOrderId]));
  $('orders-table').tBodies[0].replaceChildren(
    ...orders.map((o) => {
      const lineage = document.createDocumentFragment();
      lineage.append(idCell(o.lineage.parentOrderId, short), ' → ', idCell(o.lineage.childOrderId, short));
      const tr = row([
        idCell(o.orderId, short),
        o.entityName,
        o.auctionId,
        o.orderType,
        money(o.amount),
        o.feeBps ?? 'market',
        o.status,
        o.fill ? money(o.fill.filledAmount) : '–',
        lineage,
      ]);
      tr.dataset.orderId = o.orderId;
      return tr;
    }),
  );
}

function renderHistory(auctions) {
  $('history-chart').replaceChildren(historyChart(auctions, openReport, $('history-chart').clientWidth));
  $('history-list').replaceChildren(
    ...auctions.map((a) => {
      const li = document.createElement('li');
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = `#${a.auctionId}: ${a.clearingFeeBps} bps, ${money(a.matchedVolume)}`;
      b.addEventListener('click', () => openReport(a.auctionId));
      li.append(b);
      return li;
    }),
  );
}

async function openReport(auctionId) {
  try {
    const r = await api(`/_sim/auctions/${auctionId}`);
    $('report').hidden = false;
    $('report-h').textContent = `Clearing report: auction ${r.auctionId}`;
    const rule = typeof r.rule === 'string' ? r.rule : JSON.stringify(r.rule);
    $('report-summary').textContent =
      `cleared ${r.clearedAt} at ${r.clearingFeeBps} bps, matched ${money(r.matchedVolume)} USD; rule ${rule}`;
    $('report-curves').replaceChildren(
      bookChart('report-curves', r.curves, r.clearingFeeBps, 'No orders at this clear'),
    );
    const short = shortIds(r.orders.map((o) => o.orderId));
    $('report-orders').tBodies[0].replaceChildren(
      ...r.orders.map((o) =>
        row([
          idCell(o.orderId, short),
          o.entityName,
          o.orderType,
          money(o.amount),
          o.feeBps ?? 'market',
          o.eligible ? 'yes' : 'no',
          money(o.filledAmount),
          o.nearMiss === undefined ? '–' : o.nearMiss === null ? 'none' : `${o.nearMiss.feeBps} bps`,
        ]),
      ),
    );
    $('report-h').focus();
  } catch (err) {
    showResult(`report of auction ${auctionId}: ${err.message}`, true);
  }
}

function onMessage(event, data) {
  if (event === 'hello') showFeatures(data.features);
  if (event === 'batch') logEvents($('log-list'), data, nameOf);
  if (event === 'hello' || event === 'batch') refresh();
}

// ---- controls ----------------------------------------------------------------------------------

function showResult(text, isError = false) {
  $('result').textContent = text;
  $('result').classList.toggle('error', isError);
}

/** One control call, exactly the /_sim/ route's request; its answer (or refusal) is shown. */
async function control(label, path, body) {
  try {
    const data = await api(path, {
      method: 'POST',
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    showResult(`${label}: done${data?.auctionId ? ` (auction ${data.auctionId})` : ''}`);
    await refresh();
    return data;
  } catch (err) {
    showResult(`${label}: ${err.message}`, true);
  }
}

function onSubmit(id, fn) {
  $(id).addEventListener('submit', (event) => {
    event.preventDefault();
    fn();
  });
}

function wireControls() {
  $('clear').addEventListener('click', () => control('clear now', '/_sim/auctions/clear', {}));
  $('reset').addEventListener('click', () => control('reset', '/_sim/reset'));
  onSubmit('advance-form', () =>
    control('advance', '/_sim/clock/advance', { ms: Number($('advance-ms').value) }),
  );
  onSubmit('phase-form', () => control('set phase', '/_sim/phase', { phase: $('phase').value }));
  onSubmit('wire-form', () =>
    control('wire', '/_sim/wires', {
      entityId: $('wire-entity').value,
      amount: { amount: $('wire-amount').value.trim(), currency: 'USD' },
    }),
  );
  onSubmit('faults-form', () => {
    let faults;
    try {
      faults = JSON.parse($('faults').value || '{}');
    } catch {
      return showResult('faults: not valid JSON', true);
    }
    control('set faults', '/_sim/faults', faults);
  });
  onSubmit('order-filters', refresh);
  for (const id of ['f-entity', 'f-side', 'f-status']) $(id).addEventListener('change', refresh);
  onSubmit('token-form', () => {
    sessionStorage.setItem(TOKEN_KEY, $('token').value);
    $('token').value = '';
    $('token-form').hidden = true;
    start();
  });
  $('snapshot').addEventListener('click', downloadSnapshot);
  $('restore-file').addEventListener('change', restoreSnapshot);
}

// ---- snapshots (shown only where the simulator has the routes) ---------------------------------

/** The stream's hello names the routes this simulator has (snapshots come with a later version). */
function showFeatures(features) {
  $('snapshot-controls').hidden = !(features?.snapshot && features?.restore);
}

async function downloadSnapshot() {
  try {
    const data = await api('/_sim/snapshot', { method: 'POST' });
    const url = URL.createObjectURL(new Blob([JSON.stringify(data)], { type: 'application/json' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = `match-venue-snapshot-${document.body.dataset.auction ?? ''}.json`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
    showResult('snapshot: downloaded');
  } catch (err) {
    showResult(`snapshot: ${err.message}`, true);
  }
}

async function restoreSnapshot(event) {
  const file = event.target.files?.[0];
  if (!file) return;
  const text = await file.text();
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    return showResult('restore: the file is not JSON', true);
  }
  await control('restore', '/_sim/restore', body);
  event.target.value = '';
}

function start() {
  refresh();
  connect(token, {
    message: onMessage,
    status: (text) => {
      $('conn').textContent = text;
    },
    unauthorized: askForToken,
  });
}

wireControls();
setInterval(tick, 1000);
start();
