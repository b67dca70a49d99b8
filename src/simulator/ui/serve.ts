/**
 * `/_sim/ui`: the dashboard's page, script and style (embedded in the package by
 * assets.generated.ts, so `npx match-venue-sim` serves them offline) and `/_sim/ui/events`, a
 * server-sent event stream of the simulator's events. The page reads every number through the
 * `/_sim/` and clearing-report routes; the stream only tells it when to read again and feeds the
 * event log, so the dashboard never polls and never computes what the engine already answers.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SimulatorEvent } from '../engine/types.js';
import { controlRoutes } from '../http/control-routes.js';
import { methodNotAllowed } from '../http/router.js';
import { UI_ASSETS } from './assets.generated.js';

export const UI_PATH = '/_sim/ui';
const EVENTS_PATH = `${UI_PATH}/events`;

/** The page's assets by path; served without the control token (they hold no state, no secret). */
export const UI_ASSET_PATHS: ReadonlySet<string> = new Set([
  UI_PATH,
  `${UI_PATH}/`,
  ...Object.keys(UI_ASSETS).map((name) => `${UI_PATH}/${name}`),
]);

/**
 * No inline script or style, nothing from elsewhere: the page is its own three files. connect-src
 * 'self' covers the event stream and the `/_sim/` reads; downloads are blob: links the page makes.
 */
export const UI_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; " +
  "object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const SECURITY_HEADERS = {
  'content-security-policy': UI_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'x-frame-options': 'DENY',
};

const STREAM_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
};

/** How often buffered events go out: a burst (a 10,000-order clear) becomes one message. */
const FLUSH_MS = 100;
/** Events of one message shown in the log; the rest are counted, not sent. */
const MAX_EVENTS_PER_FLUSH = 50;
/** A comment line now and then keeps proxies from closing an idle stream. */
const KEEPALIVE_MS = 15_000;

/** What the dashboard's server needs of the simulator. */
export interface UiSimulator {
  onEvent(listener: (event: SimulatorEvent) => void): () => void;
  onControl?(listener: (signal: { type: string }) => void): () => void;
  now?(): number;
}

/**
 * Control routes the page offers only where this simulator has them: read from the route table,
 * so the buttons appear with the routes (POST /_sim/snapshot, POST /_sim/restore) and no probe
 * request is needed.
 */
export function features(): { snapshot: boolean; restore: boolean } {
  return {
    snapshot: controlRoutes['/_sim/snapshot']?.POST !== undefined,
    restore: controlRoutes['/_sim/restore']?.POST !== undefined,
  };
}

export const isUiPath = (path: string): boolean => path === UI_PATH || path.startsWith(`${UI_PATH}/`);

/** Answers a `/_sim/ui` request; returns the status written (null if the client had gone). */
export function serveUi(
  sim: UiSimulator,
  req: IncomingMessage,
  res: ServerResponse,
  method: string,
  path: string,
  extra: Record<string, string> = {},
): number | null {
  if (req.socket.destroyed) return null;
  if (method !== 'GET' && method !== 'HEAD') {
    // The one 405 of every route (router.ts): its Allow from the one GET this path serves.
    const refused = methodNotAllowed({ GET: true }, method, path).toAnswer();
    res.writeHead(405, { ...extra, ...refused.headers });
    res.end(refused.body);
    return 405;
  }
  if (path === EVENTS_PATH) {
    // HEAD: the stream's headers alone; no subscription is opened for an answer without a body.
    if (method === 'HEAD') {
      res.writeHead(200, { ...extra, ...STREAM_HEADERS });
      res.end();
      return 200;
    }
    return streamEvents(sim, req, res, extra);
  }
  const name = path === UI_PATH || path === `${UI_PATH}/` ? 'index.html' : path.slice(UI_PATH.length + 1);
  const asset = UI_ASSETS[name];
  if (!asset) {
    res.writeHead(404, { ...extra, 'content-type': 'application/json' });
    res.end(JSON.stringify({ code: -1, message: `No dashboard file ${path}` }));
    return 404;
  }
  const body = Buffer.from(asset.body, 'utf8');
  res.writeHead(200, {
    ...extra,
    ...SECURITY_HEADERS,
    'content-type': asset.type,
    'content-length': String(body.length),
    // Served from the installed package: a new version must not be hidden behind a stale copy.
    'cache-control': 'no-cache',
  });
  res.end(method === 'HEAD' ? undefined : body);
  return 200;
}

/** One line of the log: names and ids only, never a key or a ticket. */
function summarize(e: SimulatorEvent): Record<string, unknown> {
  const d = e.data as Record<string, unknown>;
  if (e.channel === 'market')
    return { channel: e.channel, event: e.event, auctionId: d.auctionId, phase: d.phase };
  const out: Record<string, unknown> = { channel: e.channel, event: e.event, entityId: e.entityId };
  for (const key of ['orderId', 'withdrawalId', 'status', 'auctionId'])
    if (typeof d[key] === 'string' || typeof d[key] === 'number') out[key] = d[key];
  return out;
}

function streamEvents(
  sim: UiSimulator,
  req: IncomingMessage,
  res: ServerResponse,
  extra: Record<string, string>,
): number {
  res.writeHead(200, { ...extra, ...STREAM_HEADERS });
  const hello = { now: new Date(sim.now?.() ?? Date.now()).toISOString(), features: features() };
  res.write(`event: hello\ndata: ${JSON.stringify(hello)}\n\n`);
  let pending: Record<string, unknown>[] = [];
  let count = 0;
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    timer = undefined;
    const data = JSON.stringify({ events: pending, count });
    pending = [];
    count = 0;
    if (!res.destroyed) res.write(`event: batch\ndata: ${data}\n\n`);
  };
  const push = (entry: Record<string, unknown>) => {
    count++;
    if (pending.length >= MAX_EVENTS_PER_FLUSH) pending.shift();
    pending.push(entry);
    timer ??= setTimeout(flush, FLUSH_MS);
  };
  const unsubscribe = sim.onEvent((e) => push(summarize(e)));
  const unsubscribeControl = sim.onControl?.((signal) => push({ channel: 'control', event: signal.type }));
  const keepalive = setInterval(() => res.write(': keepalive\n\n'), KEEPALIVE_MS).unref();
  req.socket.once('close', () => {
    unsubscribe();
    unsubscribeControl?.();
    clearInterval(keepalive);
    clearTimeout(timer);
  });
  return 200;
}
