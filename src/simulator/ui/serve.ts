/**
 * `/_sim/ui`: the dashboard's page, script and style (embedded in the package by
 * assets.generated.ts, so `npx match-venue-sim` serves them offline) and `/_sim/ui/events`, a
 * server-sent event stream of the simulator's events. The page reads every number through the
 * `/_sim/` and clearing-report routes; the stream only tells it when to read again and feeds the
 * event log, so the dashboard never polls and never computes what the engine already answers. The
 * stream itself, shared by every page a server shows, is event-stream.ts.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { methodNotAllowed } from '../http/router.js';
import { UI_ASSETS } from './assets.generated.js';
import type { UiEventStream } from './event-stream.js';

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

export const isUiPath = (path: string): boolean => path === UI_PATH || path.startsWith(`${UI_PATH}/`);

/** Answers a `/_sim/ui` request; returns the status written (null if the client had gone). */
export function serveUi(
  events: UiEventStream,
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
  if (path === EVENTS_PATH) return events.serve(req, res, extra);
  const name = path === UI_PATH || path === `${UI_PATH}/` ? 'index.html' : path.slice(UI_PATH.length + 1);
  // An own property only: `constructor` or `__proto__` is no file (an inherited one threw).
  const asset = Object.hasOwn(UI_ASSETS, name) ? UI_ASSETS[name] : undefined;
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
