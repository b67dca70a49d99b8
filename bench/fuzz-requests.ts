/** Request lines, headers and framing for the fuzz driver (bench/fuzz-cases.ts). */
import { endpoints } from '../src/generated/endpoints.js';
import type { SeededIds } from './fuzz-cases.js';
import { example, jsonText, mutate } from './fuzz-json.js';
import type { Pick } from './fuzz-pick.js';

const CONTROL_ROUTES: readonly [string, string][] = [
  ['POST', '/_sim/auctions/clear'],
  ['POST', '/_sim/auctions/settle'],
  ['POST', '/_sim/clock/advance'],
  ['POST', '/_sim/phase'],
  ['GET', '/_sim/state'],
  ['GET', '/_sim/faults'],
];
// POST /_sim/faults is left out: its valid bodies inject 503s, latency and dropped answers on purpose.
export const ROUTES: readonly [string, string][] = [
  ...Object.values(endpoints).map((e) => [e.method, e.path] as [string, string]),
  ...CONTROL_ROUTES,
];
const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS', 'TRACE', 'PROPFIND', 'FOO'];

/** Percent-encodes the UTF-8 bytes (encodeURIComponent throws on the lone surrogates text() makes). */
export function pct(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[\w.~-]/.test(c) ? c : `%${byte.toString(16).padStart(2, '0').toUpperCase()}`;
  }
  return out;
}

/** Whitespace and control characters out: a request line that still parses as one. */
export function visible(path: string): string {
  return Array.from(path, (c) => (c.charCodeAt(0) <= 0x20 ? '_' : c)).join('');
}

function routePath(template: string, p: Pick): string {
  return template.replace(/\{[^}]+\}/g, () => (p.chance(0.7) ? p.uuid() : pct(p.text(8)) || 'x'));
}

export function authHeaders(ids: SeededIds, p: Pick): Record<string, string> {
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

export function endpointCase(
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

export const FRAMING: readonly ((p: Pick) => string)[] = [
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

export function headersCase(p: Pick, ids: SeededIds): [string, string, Record<string, string>, string?] {
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
