/**
 * Request generator of the simulator fuzz driver (bench/fuzz.ts). Case `i` of seed `s` is always
 * the same bytes, whatever the concurrency, so a finding can be replayed by its index.
 */
import { endpoints } from '../src/generated/endpoints.js';
import { seededRandom } from './chaos/support.js';
import { rawRequest } from './raw-http.js';

export type CaseKind = 'endpoint' | 'json' | 'path' | 'headers' | 'framing' | 'hangup' | 'large';

export interface FuzzCase {
  index: number;
  kind: CaseKind;
  /** Short description for reports (method, path, what was broken). */
  label: string;
  bytes: Buffer;
  /** Sent on a connection of its own, closed afterwards (framing faults, hang-ups, oversized input). */
  fresh: boolean;
  /** The client hangs up after `bytes`; no answer is expected. */
  hangup: boolean;
  head: boolean;
}

export interface SeededIds {
  apiKeys: readonly string[];
  walletId: string;
  fiatAccountId: string;
}

class Pick {
  constructor(readonly r: () => number) {}
  int(max: number): number {
    return Math.floor(this.r() * max);
  }
  chance(p: number): boolean {
    return this.r() < p;
  }
  one<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }
  uuid(): string {
    const hex = () => this.int(16).toString(16);
    const part = (n: number) => Array.from({ length: n }, hex).join('');
    return `${part(8)}-${part(4)}-4${part(3)}-${this.one(['8', '9', 'a', 'b'])}${part(3)}-${part(12)}`;
  }
  text(max: number): string {
    const alphabet = [
      'a',
      'Z',
      '0',
      ' ',
      '"',
      '\\',
      '/',
      '%',
      '{',
      ']',
      '\u0000',
      '\u001f',
      'é',
      '漢',
      '\ud83d',
      '😀',
    ];
    return Array.from({ length: this.int(max + 1) }, () => this.one(alphabet)).join('');
  }
}

const CONTROL_ROUTES: readonly [string, string][] = [
  ['POST', '/_sim/auctions/clear'],
  ['POST', '/_sim/auctions/settle'],
  ['POST', '/_sim/clock/advance'],
  ['POST', '/_sim/phase'],
  ['GET', '/_sim/state'],
  ['GET', '/_sim/faults'],
];
// POST /_sim/faults is left out: its valid bodies inject 503s, latency and dropped answers on purpose.
const ROUTES: readonly [string, string][] = [
  ...Object.values(endpoints).map((e) => [e.method, e.path] as [string, string]),
  ...CONTROL_ROUTES,
];
const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS', 'TRACE', 'PROPFIND', 'FOO'];

function example(path: string, ids: SeededIds, p: Pick): unknown {
  const endpoint = 'https://example.com/hook';
  const money = { amount: p.one(['100.00', '1.00', '1000000.00']), currency: 'USD' };
  const bodies: Record<string, unknown> = {
    '/v1/match/orders': p.chance(0.5)
      ? { idempotencyKey: p.uuid(), orderType: 'MINT', amount: money, feeBps: '5', postFillAction: 'roll' }
      : {
          idempotencyKey: p.uuid(),
          orderType: 'BURN',
          amount: money,
          feeBps: p.one(['5', null, '4.25']),
          postFillAction: p.one(['roll', 'fallback', 'cancel']),
          sourceWalletId: ids.walletId,
          fiatAccountId: ids.fiatAccountId,
        },
    '/v1/match/orders/cancel': { auctionId: p.int(3) + 1, orderId: p.uuid() },
    '/v1/match/orders/modify': { auctionId: p.int(3) + 1, orderId: p.uuid(), feeBps: '4' },
    '/v1/match/withdrawals': { idempotencyKey: p.uuid(), amount: money, fiatAccountId: ids.fiatAccountId },
    '/v2/notifications/subscriptions': { endpoint, notificationTypes: ['*'] },
    '/v2/payments-network/notifications/subscriptions': {
      endpoint,
      name: 'n',
      enabled: true,
      notificationTypes: ['*'],
    },
    '/v2/fx/notifications/subscriptions': { endpoint, notificationTypes: ['*'] },
    '/v2/notifications/subscriptions/permissionless': {
      environment: 'mainnet',
      endpoint,
      addresses: ['0xabc'],
      domains: [0],
      notificationTypes: ['transfer.*'],
    },
    '/v1/notifications/subscriptions': { endpoint },
    '/_sim/auctions/clear': { settle: p.chance(0.5) },
    '/_sim/clock/advance': { ms: p.one([0, 1_000, 10_000]) },
    '/_sim/phase': { phase: p.one(['open', 'lock']) },
  };
  return bodies[path];
}

function deep(depth: number, p: Pick): unknown {
  let v: unknown = p.one([1, 'x', null]);
  for (let i = 0; i < depth; i++) v = p.chance(0.5) ? [v] : { a: v };
  return v;
}

/** A hostile JSON value: wrong types, odd numbers, long or strange strings, deep nesting. */
function hostile(p: Pick): unknown {
  switch (p.int(9)) {
    case 0:
      return p.one([null, true, 0, -1, 1e308, -0, 2 ** 53 + 1, 0.1, 1.5]);
    case 1:
      return p.text(40);
    case 2:
      return 'x'.repeat(p.one([300, 5_000, 70_000]));
    case 3:
      return deep(p.one([10, 63, 64, 65, 200]), p);
    case 4:
      return Array.from({ length: p.one([25, 1_000, 20_000]) }, () => p.int(10));
    case 5:
      return Object.fromEntries(
        Array.from({ length: p.one([30, 2_000]) }, (_, i) => [`k${i}${p.text(3)}`, i]),
      );
    case 6:
      return { [p.text(5) + 'k'.repeat(p.one([10, 3_000]))]: p.text(5) };
    case 7:
      return p.one(['1e3', '100.001', '-100.00', 'NaN', '00000000-0000-0000-0000-000000000000', '']);
    default:
      return [];
  }
}

function mutate(value: unknown, p: Pick): unknown {
  if (value === null || typeof value !== 'object' || p.chance(0.15)) return hostile(p);
  const copy: Record<string, unknown> = Array.isArray(value) ? { ...value } : { ...(value as object) };
  const keys = Object.keys(copy);
  const action = p.int(4);
  if (action === 0 && keys.length) delete copy[p.one(keys)];
  else if (action === 1 || !keys.length)
    copy[p.one(['extra', 'orderType', 'amount', '__proto__', p.text(6)])] = hostile(p);
  else {
    const key = p.one(keys);
    copy[key] = mutate(copy[key], p);
  }
  return Array.isArray(value) ? Object.values(copy) : copy;
}

function jsonText(value: unknown, p: Pick): string {
  const text = JSON.stringify(value) ?? 'null';
  if (!p.chance(0.2)) return text;
  const cut = p.int(text.length + 1);
  return p.chance(0.5) ? text.slice(0, cut) : `${text.slice(0, cut)}${p.text(3)}${text.slice(cut)}`;
}

/** Percent-encodes the UTF-8 bytes (encodeURIComponent throws on the lone surrogates text() makes). */
function pct(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[\w.~-]/.test(c) ? c : `%${byte.toString(16).padStart(2, '0').toUpperCase()}`;
  }
  return out;
}

/** Whitespace and control characters out: a request line that still parses as one. */
function visible(path: string): string {
  return Array.from(path, (c) => (c.charCodeAt(0) <= 0x20 ? '_' : c)).join('');
}

function routePath(template: string, p: Pick): string {
  return template.replace(/\{[^}]+\}/g, () => (p.chance(0.7) ? p.uuid() : pct(p.text(8)) || 'x'));
}

function authHeaders(ids: SeededIds, p: Pick): Record<string, string> {
  const roll = p.r();
  if (roll < 0.7) return { authorization: `Bearer ${p.one(ids.apiKeys)}` };
  if (roll < 0.8) return {};
  if (roll < 0.9)
    return { authorization: p.one(['Bearer', 'Basic abc', `Bearer ${p.text(10).replace(/\s/g, '')}`]) };
  return { authorization: 'Bearer TEST_API_KEY:nobody:secret' };
}

function listQuery(p: Pick): string {
  const params = ['page', 'pageSize', 'status', 'orderType', 'orderId', 'from', 'to'];
  const values = [
    '1',
    '0',
    '-1',
    '101',
    '1e2',
    '0x10',
    '',
    'pending',
    'BURN',
    '2026-01-01T00:00:00Z',
    'x'.repeat(300),
  ];
  const n = p.int(4);
  const pairs = Array.from({ length: n }, () => `${p.one(params)}=${encodeURIComponent(p.one(values))}`);
  return pairs.length ? `?${pairs.join('&')}` : '';
}

function endpointCase(
  p: Pick,
  ids: SeededIds,
  mutateBody: boolean,
): [string, string, Record<string, string>, string?] {
  const [routeMethod, template] = p.one(ROUTES);
  const method = p.chance(0.85) ? routeMethod : p.one(METHODS);
  let path = routePath(template, p);
  if (path === '/v1/match/orders' && method === 'GET') path += listQuery(p);
  const headers = { ...authHeaders(ids, p), 'content-type': 'application/json' };
  if (method === 'GET' || method === 'HEAD') return [method, path, headers];
  const base = example(template, ids, p) ?? {};
  return [method, path, headers, jsonText(mutateBody ? mutate(base, p) : base, p)];
}

const FRAMING: readonly ((p: Pick) => string)[] = [
  () => 'POST /v1/match/orders HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n',
  () => 'POST /v1/match/orders HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab',
  () => 'POST /v1/match/orders HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n',
  () =>
    'POST /v1/match/orders HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
  () =>
    'POST /v1/match/orders HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n',
  () =>
    'POST /v1/match/orders HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nabc\r\n0\r\n\r\n',
  () => 'POST /v1/match/orders HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked, x\r\n\r\n',
  (p) =>
    `POST /_sim/phase HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n1;${'e'.repeat(p.one([100, 20_000]))}\r\na\r\n0\r\n\r\n`,
  () => 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n',
  // Leading empty lines are skipped by HTTP parsers (and the server then rightly waits), hence the X.
  (p) => `X${p.text(30)}\r\n\r\n`,
  () => 'GET /_sim/state HTTP/1.1\nHost: x\n\n',
  () => 'GET /_sim/state HTTP/9.9\r\nHost: x\r\n\r\n',
  () => 'GET /_sim/state HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n',
  () => 'GET /_sim/state HTTP/1.1\r\nHost: x\r\nX-Nul: a\u0000b\r\n\r\n',
  () => 'GET /\u0001 HTTP/1.1\r\nHost: x\r\n\r\n',
  () => 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n',
  () => 'GET /_sim/state HTTP/1.1\r\n\r\n',
  () => 'GET /_sim/state HTTP/1.1\r\nHost: a b\r\n\r\n',
];

function headersCase(p: Pick, ids: SeededIds): [string, string, Record<string, string>, string?] {
  const [method, path, headers, body] = endpointCase(p, ids, false);
  const extra: Record<string, string>[] = [
    { 'x-big': 'h'.repeat(p.one([8_000, 20_000, 70_000])) },
    { expect: p.one(['100-continue', 'teapot']) },
    { 'x-request-id': p.one(['ok-1', 'x'.repeat(500), 'bad id']) },
    { 'content-type': p.one(['text/plain', 'application/json; charset=latin1', '']) },
    { connection: 'close' },
    { host: p.one(['', 'a:99999', '[::1', 'example.com']) },
    Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`x-h${i}`, 'v'])),
  ];
  return [method, path, { ...headers, ...p.one(extra) }, body];
}

/** Case `index` of the run seeded by `seed`. */
export function makeCase(seed: number, index: number, ids: SeededIds): FuzzCase {
  const p = new Pick(seededRandom((seed * 0x9e3779b1) ^ index));
  // The first cases take every kind in turn, so that even a short run covers each of them.
  const kinds: CaseKind[] = ['endpoint', 'json', 'path', 'headers', 'framing', 'hangup', 'large'];
  const roll = p.r();
  const kind: CaseKind =
    index < kinds.length * 4
      ? (kinds[index % kinds.length] as CaseKind)
      : roll < 0.45
        ? 'endpoint'
        : roll < 0.65
          ? 'json'
          : roll < 0.75
            ? 'path'
            : roll < 0.85
              ? 'headers'
              : roll < 0.93
                ? 'framing'
                : roll < 0.99
                  ? 'hangup'
                  : 'large';
  const plain = (
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: string,
    fresh = false,
  ) => ({
    index,
    kind,
    label: `${method} ${path.slice(0, 80)}`,
    bytes: rawRequest(method, path, headers, body),
    fresh,
    hangup: false,
    head: method === 'HEAD',
  });
  switch (kind) {
    case 'endpoint':
    case 'json': {
      const [method, path, headers, body] = endpointCase(p, ids, true);
      if (kind !== 'json' || body === undefined) return plain(method, path, headers, body);
      const roll = p.r();
      if (roll < 0.3) {
        const depth = p.one([65, 1_000, 10_000, 100_000]);
        const field = p.one(['endpoint', 'amount', 'orderType', 'ms']);
        return plain(method, path, headers, `{"${field}":${'['.repeat(depth)}${']'.repeat(depth)}}`);
      }
      if (roll < 0.4) {
        // Past the ~128 KB that used to stall a keep-alive connection answered without reading it.
        const huge = 'w'.repeat(p.one([150_000, 600_000, 1_000_000]));
        const field = p.one(['endpoint', 'orderType', 'feeBps', 'phase', 'idempotencyKey']);
        return plain(method, path, headers, JSON.stringify({ [field]: huge }));
      }
      return plain(method, path, headers, body);
    }
    case 'path': {
      const [method, template] = p.one(ROUTES);
      const junk = p.one([
        () => `${template}/${p.text(10)}`,
        () => `${template}${'/x'.repeat(p.one([10, 4_000]))}`,
        () => `/${pct(p.text(20))}%zz%${p.text(1)}`,
        () => `${template}/../..//${p.uuid()}`,
        () => `http://other.example${template}`,
        () => `*`,
      ])();
      return plain(method, visible(junk), authHeaders(ids, p));
    }
    case 'headers': {
      const [method, path, headers, body] = headersCase(p, ids);
      return plain(method, path, headers, body, true);
    }
    case 'framing': {
      const bytes = Buffer.from(p.one(FRAMING)(p), 'latin1');
      return {
        index,
        kind,
        label: bytes.subarray(0, 60).toString('latin1'),
        bytes,
        fresh: true,
        hangup: false,
        head: false,
      };
    }
    case 'hangup': {
      const [method, path, headers, body = '{"orderType":"BURN"}'] = endpointCase(p, ids, true);
      const m = method === 'GET' || method === 'HEAD' ? 'POST' : method;
      const full = rawRequest(
        m,
        path,
        { ...headers, 'content-length': String(Buffer.byteLength(body) + 100) },
        body,
      );
      return { ...plain(m, path, headers), bytes: full, fresh: true, hangup: true };
    }
    case 'large': {
      const size = p.one([1_048_577, 1_500_000]);
      const [method, path, headers] = endpointCase(p, ids, false);
      const m = method === 'GET' || method === 'HEAD' ? 'POST' : method;
      return plain(m, path, headers, `{"endpoint":"${'y'.repeat(size)}"}`, true);
    }
  }
}
