/**
 * What a bot in another language needs to talk to the simulator with curl, Python or anything
 * else: the REST paths, the test keys in full (the seeded ones, and a scenario's), the WebSocket
 * handshake and where the OpenAPI file is. Printed by `--help` and in the startup banner;
 * test/simulator/cli-help.test.ts drives the simulator with nothing but what this prints, so the
 * text has to be enough. The routes listed are the route tables' (the contract's endpoints, the
 * `/_sim/` control routes, the platform's state, the dashboard), so a route cannot go unlisted.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { SUBPROTOCOL, TICKET_PROTOCOL_PREFIX, WS_PATH } from '../../contract/ws-protocol.js';
import { endpoints } from '../../generated/endpoints.js';
import { SEEDED } from '../engine/seed.js';
import { controlRoutes } from '../http/control-routes.js';
import { PLATFORM_STATE_PATH } from '../platform/sns-endpoints.js';
import { UI_PATH } from '../ui/serve.js';
import { packageRoot } from './version.js';

const NAMES = ['burner', 'minter', 'ineligible', 'noaccount'] as const;

/** What each control route does, in the order listed; a route of the tables without one is listed bare. */
const NOTES: Record<string, string> = {
  'POST /_sim/auctions/clear': 'lock -> clear -> settle the current auction now',
  'POST /_sim/auctions/settle': 'settle the auction settling now (after clear with {"settle": false})',
  'POST /_sim/clock/advance': 'body {"ms": n}: move the clock (manual or real)',
  'POST /_sim/phase': 'body {"phase": "open"|"lock"}: lock the current auction now, or open it again',
  'POST /_sim/wires': 'body {"entityId", "amount"}: a settled wire onto a venue-only balance',
  'POST /_sim/faults': 'body {"latencyMs"?, "errorRate"?, "dropResponse"?, ...}: inject faults',
  'GET /_sim/faults': 'the fault set in force',
  'POST /_sim/reset': 'back to the seeded state',
  'GET /_sim/state': 'auction, entities (keys, wallets, balances), wires, faults',
  'GET /_sim/auctions/current': "the open auction's indicative fee, volume and imbalance",
  'GET /_sim/auctions/{auctionId}': 'the clearing report of a cleared auction',
  'GET /_sim/auctions': '?limit=: the last auctions that cleared, newest first',
  'GET /_sim/orders': "?entityId=&side=&status=&limit=: every entity's newest orders",
  'GET /_sim/log': 'the event log as NDJSON (start with --event-log)',
  'POST /_sim/snapshot': 'the whole state as one versioned JSON document',
  'POST /_sim/restore': 'body: a snapshot document; the simulator put exactly there',
  [`GET ${PLATFORM_STATE_PATH}`]: 'webhook subscriptions and deliveries',
  [`GET ${UI_PATH}`]: 'the dashboard (unless --no-ui)',
};

/** Every `/_sim/` route a client calls, from the route tables: method, path and what it does. */
export function controlOperations(): { method: string; path: string; what: string }[] {
  const routes = Object.entries(controlRoutes).flatMap(([path, methods]) =>
    Object.keys(methods).map((method) => `${method} ${path}`),
  );
  routes.push(`GET ${PLATFORM_STATE_PATH}`, `GET ${UI_PATH}`);
  const order = Object.keys(NOTES);
  const rank = (route: string) => (order.includes(route) ? order.indexOf(route) : order.length);
  return routes
    .sort((a, b) => rank(a) - rank(b))
    .map((route) => {
      const [method = '', path = ''] = route.split(' ');
      return { method, path, what: NOTES[route] ?? '' };
    });
}

/** A test key's entity as printed: name, key in full, ids. */
export interface GuideEntity {
  name: string;
  apiKey: string;
  walletId: string | null;
  fiatAccountId: string;
}

/** The shipped OpenAPI file, found from the package root; undefined when it is not there. */
export function openApiPath(from?: string): string | undefined {
  const root = packageRoot(from);
  const file = root === undefined ? undefined : join(root, 'openapi', 'match-venue.yaml');
  return file !== undefined && existsSync(file) ? file : undefined;
}

/** The seeded entities as printed: name, key in full, ids. */
export function seededEntities(): GuideEntity[] {
  return NAMES.map((name) => {
    const s = SEEDED[name];
    return {
      name,
      // The simulator's published test keys (also in its README and SEEDED): useless on a venue.
      apiKey: s.apiKey,
      walletId: name === 'noaccount' ? null : s.walletId,
      fiatAccountId: s.fiatAccountId,
    };
  });
}

/** Every REST operation of the endpoint table, as `METHOD path`. */
export function restOperations(): { method: string; path: string; operationId: string }[] {
  return Object.values(endpoints).map(({ method, path, operationId }) => ({ method, path, operationId }));
}

const entityLine = (e: GuideEntity) =>
  `  ${e.name.padEnd(10)} key ${e.apiKey.padEnd(28)} wallet ${e.walletId ?? '-'.padEnd(36)}  fiat ${e.fiatAccountId}`;

/**
 * The guide's lines for a simulator at `baseUrl` (http://host:port) with sockets at `wsUrl`;
 * `scenario`: the entities a scenario added, listed after the seeded ones.
 */
export function guideLines(
  baseUrl: string,
  wsUrl: string,
  scenario: readonly GuideEntity[] = [],
  openApi = openApiPath(),
): string[] {
  const burner = SEEDED.burner;
  const burn = {
    idempotencyKey: '<a new UUID v4 per order; it becomes the orderId>',
    orderType: 'BURN',
    amount: { amount: '1000.00', currency: 'USD' },
    feeBps: '5',
    postFillAction: 'cancel',
    sourceWalletId: burner.walletId,
    fiatAccountId: burner.fiatAccountId,
  };
  const mint = {
    idempotencyKey: '<a new UUID v4>',
    orderType: 'MINT',
    amount: { amount: '1000.00', currency: 'USD' },
    feeBps: '2',
    postFillAction: 'cancel',
  };
  return [
    `REST at ${baseUrl} (JSON; header Authorization: Bearer <key>; success {"data": ...}, refusal {"code", "message"}):`,
    ...restOperations().map((op) => `  ${op.method.padEnd(6)} ${op.path.padEnd(48)} ${op.operationId}`),
    'Simulator control (no API key; with a control token, the startup access line names its header):',
    ...controlOperations().map(({ method, path, what }) =>
      `  ${method.padEnd(6)} ${path.padEnd(48)} ${what}`.trimEnd(),
    ),
    "Seeded entities (the simulator's published test keys, valid nowhere else):",
    ...seededEntities().map(entityLine),
    ...(scenario.length === 0
      ? []
      : ['Scenario entities (test keys TEST_API_KEY:<name>:sim, valid on this simulator only):']),
    ...scenario.map(entityLine),
    'Place a BURN as burner (a MINT as minter: the same without sourceWalletId and fiatAccountId):',
    `  curl -X POST ${baseUrl}${endpoints.placeOrder.path} -H 'Authorization: Bearer ${burner.apiKey}' \\`,
    `    -H 'Content-Type: application/json' -d '${JSON.stringify(burn)}'`,
    `  MINT body: ${JSON.stringify(mint)}`,
    `  then: curl -X POST ${baseUrl}/_sim/auctions/clear; curl ${baseUrl}/v1/match/orders/<orderId> -H 'Authorization: Bearer ${burner.apiKey}'`,
    'WebSocket:',
    `  1. POST ${baseUrl}${endpoints.createWsTicket.path} with the Bearer key -> {"data": {"ticket": "<ticket>", "expiresAt": ...}} (single use; lifetime --ticket-ttl-ms, default 30000 ms)`,
    `  2. connect to ${wsUrl}${WS_PATH} offering two subprotocols: ${SUBPROTOCOL} and ${TICKET_PROTOCOL_PREFIX}<ticket>`,
    `     (header Sec-WebSocket-Protocol: ${SUBPROTOCOL}, ${TICKET_PROTOCOL_PREFIX}<ticket>); the server selects ${SUBPROTOCOL}`,
    `     Python: websockets.connect("${wsUrl}${WS_PATH}", subprotocols=["${SUBPROTOCOL}", "${TICKET_PROTOCOL_PREFIX}" + ticket])`,
    '  3. the server sends {"type":"hello",...} first; then send {"op":"subscribe","channel":"market","id":1}',
    '     (or "account"): {"type":"subscribed",...}, then events {"type":"event","event":"auction.cleared",...}',
    '     Money on the socket is integer cents.',
    `OpenAPI (every path, body, answer and error code): ${openApi ?? 'openapi/match-venue.yaml in the match-venue package'}`,
  ];
}
