/**
 * The ids a recording holds are the recorded venue's: the simulator hands out its own. Each recorded
 * response teaches the map (a field named `id` or `…Id` whose recorded and simulated values are both
 * strings or both integers at the same path maps the recorded value to the simulated one), and every
 * later request is rewritten with it before it is sent: path segments, query values, id fields of
 * the body. Order ids are the client's idempotency keys, so they usually map to themselves.
 */
import type { CassetteJson, CassetteRequest } from '../../contract/cassette.js';

const ID_FIELD = /^(?:id|.+Id)$/;

/** An id field the map does not know: the value to send instead, or undefined to send it as recorded. */
export type IdFallback = (field: string, value: string) => string | undefined;

export class IdMap {
  /** Recorded -> simulated; integers under their decimal text (a path segment is text). */
  private readonly map = new Map<string, string | number>();

  /** Learns the ids of one exchange: the recorded response body beside the simulated one. */
  learn(recorded: unknown, simulated: unknown): void {
    if (Array.isArray(recorded) && Array.isArray(simulated)) {
      // Lists of other lengths cannot be paired item by item.
      if (recorded.length === simulated.length)
        for (let i = 0; i < recorded.length; i++) this.learn(recorded[i], simulated[i]);
      return;
    }
    if (!isObject(recorded) || !isObject(simulated)) return;
    for (const [name, r] of Object.entries(recorded)) {
      if (!(name in simulated)) continue;
      const s = simulated[name];
      if (ID_FIELD.test(name) && isIdValue(r) && isIdValue(s) && typeof r === typeof s) {
        // The first pairing wins: a later list may hold the same id beside another's.
        if (r !== s && !this.map.has(String(r))) this.map.set(String(r), s);
      } else this.learn(r, s);
    }
  }

  /** Maps `recorded` to `simulated` from now on (a recorded wallet the probe sends as its entity's). */
  set(recorded: string, simulated: string | number): void {
    this.map.set(recorded, simulated);
  }

  /** The simulated value for a recorded id, or undefined. */
  get(recorded: string | number): string | number | undefined {
    return this.map.get(String(recorded));
  }

  /** Every pair learned, recorded -> simulated, in the order learned. */
  pairs(): { recorded: string; simulated: string }[] {
    return [...this.map].map(([recorded, simulated]) => ({ recorded, simulated: String(simulated) }));
  }

  /** `request` with every known recorded id replaced by its simulated one. */
  rewrite(request: CassetteRequest, fallback: IdFallback = () => undefined): CassetteRequest {
    const text = (value: string) => {
      const mapped = this.map.get(value);
      return mapped === undefined ? value : String(mapped);
    };
    const query: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(request.query))
      query[name] = Array.isArray(value) ? value.map(text) : text(value);
    return {
      method: request.method,
      path: request.path
        .split('/')
        .map((segment) => {
          const decoded = decodeSegment(segment);
          const mapped = text(decoded);
          return mapped === decoded ? segment : encodeURIComponent(mapped);
        })
        .join('/'),
      query,
      body: this.rewriteBody(request.body, fallback),
    };
  }

  private rewriteBody(value: CassetteJson, fallback: IdFallback): CassetteJson {
    if (Array.isArray(value)) return value.map((item) => this.rewriteBody(item, fallback));
    if (!isObject(value)) return value;
    const out: { [key: string]: CassetteJson } = {};
    for (const [name, item] of Object.entries(value)) {
      if (ID_FIELD.test(name) && isIdValue(item)) {
        const mapped = this.map.get(String(item));
        // A mapped integer stays an integer only when it was one (an auction id), text otherwise.
        if (mapped !== undefined) out[name] = typeof item === 'number' ? Number(mapped) : String(mapped);
        else out[name] = typeof item === 'string' ? (fallback(name, item) ?? item) : item;
      } else out[name] = this.rewriteBody(item, fallback);
    }
    return out;
  }
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    // A malformed escape is sent as recorded: the answer to it is part of what is compared.
    return segment;
  }
}

function isObject(value: unknown): value is { [key: string]: CassetteJson } {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isIdValue(value: unknown): value is string | number {
  return typeof value === 'string' || (typeof value === 'number' && Number.isSafeInteger(value));
}
