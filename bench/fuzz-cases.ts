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
import { Pick } from './fuzz-pick.js';
import { authHeaders, endpointCase, FRAMING, headersCase, pct, ROUTES, visible } from './fuzz-requests.js';

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
