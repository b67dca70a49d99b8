/**
 * The fuzz driver's ui family: `/_sim/ui/*` and odd top-level paths (Object.prototype's names
 * plain and percent-encoded, double slashes, dot segments, very long segments, unicode, the
 * dashboard's file names with suffixes, trailing slashes) with GET, HEAD and POST, against a
 * simulator serving its dashboard. Every answer is an answer: no 5xx, no stall, nothing logged,
 * and every error a JSON `{code, message}` body.
 */
import { seededRandom } from './chaos/support.js';
import {
  Asker,
  type FamilyReport,
  isJsonError,
  newFamilyReport,
  note,
  type SimulatorModule,
  watchingCrashes,
} from './fuzz-family.js';
import { Pick } from './fuzz-pick.js';
import { pct, visible } from './fuzz-requests.js';

export interface UiFamilyOptions {
  cases: number;
  seed: number;
  timeoutMs: number;
  deadline: number;
  concurrency: number;
}

export interface UiCase {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

const PROTO_NAMES = [
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toLocaleString',
  '__defineGetter__',
  '__lookupSetter__',
  'prototype',
];
const ASSETS = ['index.html', 'dashboard.js', 'dashboard.css', 'charts.js', 'live.js'];
const SUFFIXES = [
  '',
  '/',
  '.map',
  '~',
  '.bak',
  '%00',
  '%2F',
  ';x',
  '?x=1',
  '#top',
  '.',
  '..',
  '/..',
  '%20',
  '/index.html',
];
const PREFIXES = [
  '/_sim/ui',
  '/_sim/ui',
  '/_sim/ui',
  '/_sim',
  '',
  '/v1',
  '/v1/match',
  '/_sim/auctions',
  '/v2/notifications',
];
const METHODS = ['GET', 'GET', 'GET', 'HEAD', 'HEAD', 'POST', 'POST', 'PUT', 'DELETE', 'OPTIONS'];

/** `__proto__` as %5F%5Fproto%5F%5F (either case) and other spellings a decoder might undo. */
function encoded(name: string, p: Pick): string {
  switch (p.int(4)) {
    case 0:
      return name.replace(/_/g, '%5F');
    case 1:
      return name.replace(/_/g, '%5f').replace(/o/g, '%6F');
    case 2:
      return pct(name).replace(/[a-z]/g, (c) => `%${c.charCodeAt(0).toString(16)}`);
    default:
      return name.toUpperCase();
  }
}

function segment(p: Pick): string {
  switch (p.int(8)) {
    case 0:
    case 1:
      return p.one(PROTO_NAMES);
    case 2:
      return encoded(p.one(PROTO_NAMES), p);
    case 3:
      return `${p.one(ASSETS)}${p.one(SUFFIXES)}`;
    case 4:
      return p.one(['a'.repeat(p.one([300, 5_000, 60_000])), `${'%E6%BC%A2'.repeat(500)}`]);
    case 5:
      return p.one([
        '漢字',
        'é',
        '😀',
        '%E6%BC%A2',
        '%C0%AE%C0%AE',
        '%E0%A4%A',
        '%FF',
        '%ZZ',
        pct(p.text(12)) || 'x',
      ]);
    case 6:
      return p.one(['.', '..', '%2e', '%2E%2E', '.%2e', '...', '', 'events/..', 'events%2F..']);
    default:
      return p.one(['ui', 'state', 'orders', 'auctions', 'index.html', 'x']);
  }
}

/** Case `index` of the family seeded by `seed`. */
export function uiCase(seed: number, index: number, ids: { apiKey: string }): UiCase {
  const p = new Pick(seededRandom((seed * 0xc2b2ae35) ^ (index * 0x165667b1) ^ 0x5157));
  // The first cases: each Object.prototype name right under /_sim/ui, then at the top, with GET.
  const early = index < PROTO_NAMES.length * 2;
  const prefix = early ? (index < PROTO_NAMES.length ? '/_sim/ui' : '') : p.one(PREFIXES);
  const parts = early ? [PROTO_NAMES[index % PROTO_NAMES.length] as string] : [];
  if (!early) for (let n = 1 + p.int(3); n > 0; n--) parts.push(segment(p));
  let path = `${prefix}/${parts.join('/')}`;
  if (!early) {
    if (p.chance(0.15)) path = path.replace(/^\//, p.one(['//', '/./', '/_sim/../']));
    if (p.chance(0.15))
      path = path.replace('/_sim/ui', p.one(['/_sim//ui', '/_sim/ui//', '/_SIM/UI', '/_sim/./ui']));
    if (p.chance(0.1)) path += p.one(['/', '//', '?', '?__proto__=1', '?constructor[prototype][x]=1']);
    if (p.chance(0.05))
      path = `/_sim/${p.one(['orders', 'auctions'])}?${p.one(['entityId', 'limit', 'side', '__proto__'])}=${p.one(PROTO_NAMES)}`;
  }
  const method = early ? 'GET' : p.one(METHODS);
  const headers: Record<string, string> = p.chance(0.5) ? { authorization: `Bearer ${ids.apiKey}` } : {};
  if (method !== 'POST' && method !== 'PUT') return { method, path: visible(path), headers };
  return {
    method,
    path: visible(path),
    headers: { ...headers, 'content-type': 'application/json' },
    body: '{}',
  };
}

/**
 * The dashboard's event stream answers and then stays open by design: a GET that lands there
 * (however spelt) is sent as HEAD, so the case still ends with an answer.
 */
function landsOnEvents(path: string): boolean {
  try {
    return new URL(path, 'http://localhost').pathname === '/_sim/ui/events';
  } catch {
    return false;
  }
}

export async function runUiFamily(mod: SimulatorModule, o: UiFamilyOptions): Promise<FamilyReport> {
  const r = newFamilyReport();
  const started = Date.now();
  const logged: string[] = [];
  const sim = mod.createSimulator({
    logger: {
      info: () => undefined,
      error: (message, err) => logged.push(`${message}: ${String(err).slice(0, 200)}`),
    },
    fetch: async () => new Response(null, { status: 200 }),
  });
  const running = await sim.listen({ host: '127.0.0.1', port: 0, ui: true });
  const port = Number(new URL(running.url).port);
  const ids = { apiKey: mod.SEEDED.burner.apiKey };
  let next = 0;
  const worker = async () => {
    const asker = new Asker(port, o.timeoutMs);
    while (next < o.cases) {
      if (Date.now() > o.deadline) {
        r.truncated = true;
        break;
      }
      const index = next++;
      const c = uiCase(o.seed, index, ids);
      const method = landsOnEvents(c.path) && c.method === 'GET' ? 'HEAD' : c.method;
      const at = `${index} ${method} ${c.path.slice(0, 100)}`;
      r.sent++;
      const got = await asker.ask(method, c.path, c.headers, c.body);
      // A HEAD on the stream leaves it open: that connection is not reused.
      if (landsOnEvents(c.path)) asker.close();
      if (typeof got !== 'object') {
        note(r, got === 'timeout' ? 'stalled' : 'closedUnanswered', `${at} -> ${got}`);
        continue;
      }
      r.byStatus[got.status] = (r.byStatus[got.status] ?? 0) + 1;
      if (got.status >= 500) note(r, 'serverErrors', `${at} -> ${got.status}`);
      else if (got.status >= 400) r.refused++;
      else r.accepted++;
      if (got.status >= 400 && method !== 'HEAD' && !isJsonError(got))
        note(
          r,
          'nonJsonErrors',
          `${at} -> ${got.status} ${JSON.stringify(got.body.subarray(0, 60).toString('utf8'))}`,
        );
    }
    asker.close();
  };
  await watchingCrashes(r, async () => {
    await Promise.all(Array.from({ length: o.concurrency }, worker));
    const probe = new Asker(port, o.timeoutMs);
    const alive = await probe.ask('GET', '/_sim/ui/index.html');
    probe.close();
    if (typeof alive !== 'object' || alive.status !== 200)
      note(
        r,
        'crashes',
        `dashboard not answering at the end: ${typeof alive === 'object' ? alive.status : alive}`,
      );
  });
  await running.close();
  await sim.close();
  r.loggedErrors = logged.length;
  if (logged.length) r.examples.loggedErrors = logged.slice(0, 5);
  r.elapsedMs = Date.now() - started;
  return r;
}
