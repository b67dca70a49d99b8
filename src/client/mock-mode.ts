import { ConfigurationError } from '../core/error.js';
import { describeLoadFailure, runtimeImport } from '../core/runtime-import.js';
import type { WebHandler } from '../core/transport.js';

/**
 * Mock mode as the client sees it. The client knows nothing of the simulator (not even its types):
 * for `environment: 'mock'` it asks the testing layer for a binding, a web handler plus the
 * WebSocket URL streams connect to, and serves requests with it in-process. The testing layer's
 * `mockBinding()` returns this shape (src/testing/mock-mode.ts spells it again: neither layer
 * imports the other).
 */
export interface MockBinding {
  /** Answers one request in-process (no socket). */
  handle(request: Request): Promise<Response>;
  /** The WebSocket base URL for streams (the shared simulator starts listening on loopback when first asked). */
  wsUrl(): Promise<string>;
}

// A handler made by the testing layer (createMockVenue's) carries, under this key, where its
// simulator's WebSocket listens: a function that starts the listener on first use. A registered
// symbol, so the testing layer and every copy of the main entry (ESM, CJS) agree on it without
// importing each other; src/testing/mock-venue.ts spells the same name.
const HANDLER_WS_URL = Symbol.for('match-venue.handler-ws-url');

/**
 * The WebSocket URL source a handler carries (see HANDLER_WS_URL), or undefined for a plain
 * handler, which has no socket to stream on.
 */
export function handlerWsUrl(handler: WebHandler): (() => Promise<string>) | undefined {
  const source: unknown = (handler as { [HANDLER_WS_URL]?: unknown })[HANDLER_WS_URL];
  return typeof source === 'function' ? () => Promise.resolve(source()).then(String) : undefined;
}

/** What the client expects of the testing entry (`match-venue/testing`) it loads. */
interface MockModeProvider {
  mockBinding(): Promise<MockBinding>;
}

// The package's own public subpath, through runtimeImport: a bundle of the main entry never
// contains the simulator; Node resolves it through the package's `exports` (vitest through its
// alias, tsx through the tsconfig `paths`) only when mock mode is used.
const TESTING_ENTRY = 'match-venue/testing';

let provider: Promise<MockModeProvider> | undefined;

function loadProvider(): Promise<MockModeProvider> {
  provider ??= runtimeImport<MockModeProvider>(TESTING_ENTRY).catch((cause: unknown) => {
    provider = undefined;
    throw new ConfigurationError(mockLoadMessage(cause), { cause });
  });
  return provider;
}

/**
 * Why mock mode could not start, from why its entry failed to load: only an entry that is not
 * there means the package was bundled or removed; anything else (a dependency that is missing or
 * will not load, a runtime without `import()`) is quoted as the cause it is.
 */
export function mockLoadMessage(cause: unknown): string {
  const failure = describeLoadFailure(TESTING_ENTRY, cause);
  const head = `Mock mode could not load its simulator from '${TESTING_ENTRY}'`;
  return failure.missing
    ? `${head}, which was not found (${failure.reason}): keep the match-venue package installed ` +
        '(not bundled into a single file) to use environment "mock".'
    : `${head}: ${failure.reason}.`;
}

/** The binding to the process-wide mock simulator (shared by every mock-mode client of the process). */
export function loadMockBinding(): Promise<MockBinding> {
  return loadProvider().then((mod) => mod.mockBinding());
}
