/**
 * Shared pieces of the chaos drivers: a seeded RNG, seeded UUID v4 keys, and the loader that picks
 * which source tree (this checkout's `src/`, or another one such as an untouched baseline) supplies
 * the SDK and the simulator, so "before" and "after" figures come from the same driver.
 */
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

// The engine's seeded generator (mulberry32): the drivers' draws stay reproducible per --seed.
import { seededRandom } from '../../src/simulator/engine/ids.js';

export { seededRandom };

/** FNV-1a over the parts: one independent draw per (seed, name, ...) whatever the arrival order. */
export function hash01(...parts: (string | number)[]): number {
  let h = 0x811c9dc5;
  const text = parts.join('\u0000');
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return seededRandom(h >>> 0)();
}

/** A UUID v4 drawn from `random` (idempotency keys must be v4: the venue checks the version). */
export function seededUuid(random: () => number): string {
  const bytes = Array.from({ length: 16 }, () => Math.floor(random() * 256));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A BURN order of the seeded burner at 5 bps, its remainder dropped: the drivers' standard placement. */
export function burnOrder(
  burner: { walletId: string; fiatAccountId: string },
  idempotencyKey?: string,
  amount = '100.00',
) {
  return {
    ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
    orderType: 'BURN' as const,
    amount: { amount, currency: 'USD' as const },
    feeBps: '5',
    postFillAction: 'cancel' as const,
    sourceWalletId: burner.walletId,
    fiatAccountId: burner.fiatAccountId,
  };
}

export const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

/** What a run opened, closed in reverse order at the end, even when setting up failed halfway. */
export class Cleanup {
  private readonly steps: (() => unknown)[] = [];

  /** Registers `close` and hands `thing` back. */
  add<T>(thing: T, close: (thing: T) => unknown): T {
    this.steps.push(() => close(thing));
    return thing;
  }

  async run(): Promise<void> {
    for (const step of this.steps.splice(0).reverse()) {
      try {
        await step();
      } catch {
        // Closing what is already closed, or half made: nothing more to do.
      }
    }
  }
}

type Sdk = typeof import('../../src/index.js');
type SimulatorModule = typeof import('../../src/simulator/index.js');
type WsServerModule = typeof import('../../src/simulator/ws/server.js');

/** The SDK and simulator of one source tree. */
export interface Sources {
  /** Absolute path of the `src/` directory they come from. */
  root: string;
  sdk: Sdk;
  simulator: SimulatorModule;
  /** `attachWebSocket`, to serve the simulator's socket with a chosen replay buffer. */
  ws: WsServerModule;
}

/** This checkout's `src/`. */
export const DEFAULT_SRC_ROOT = fileURLToPath(new URL('../../src/', import.meta.url));

const loaded = new Map<string, Promise<Sources>>();

/**
 * Imports the SDK and simulator from `root` (a `src/` directory; default this checkout's). Set by
 * `--src <dir>` or `MATCH_VENUE_SRC` in the CLI; e.g. `/work/baseline/src` for "before" figures.
 */
export function loadSources(root: string = DEFAULT_SRC_ROOT): Promise<Sources> {
  const abs = resolve(root);
  let pending = loaded.get(abs);
  if (!pending) {
    const load = (rel: string) => import(pathToFileURL(resolve(abs, rel)).href);
    pending = Promise.all([
      load('index.ts') as Promise<Sdk>,
      load('simulator/index.ts') as Promise<SimulatorModule>,
      load('simulator/ws/server.ts') as Promise<WsServerModule>,
    ]).then(([sdk, simulator, ws]) => ({ root: abs, sdk, simulator, ws }));
    loaded.set(abs, pending);
  }
  return pending;
}

/** The one-line description of an error the drivers record (class name, status, code). */
export function describeError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const e = err as Error & { status?: number; venueCode?: unknown };
  if (typeof e.status === 'number') return `${err.name} ${e.status} ${String(e.venueCode)}`;
  return err.name;
}
