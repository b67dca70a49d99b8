// Set by the build (tsup.config.ts): true in the CommonJS output, false in the ES module output.
// Undeclared where the sources run as they are (vitest, tsx, a bot bundling src/), hence `typeof`.
declare const MATCH_VENUE_CJS_BUILD: boolean;

/**
 * Loads a module through a specifier no bundler follows (esbuild, rollup, webpack and vite follow
 * only a literal one): what it loads stays out of a bot's bundle, and it is resolved from
 * node_modules only when asked for. Used for undici (first request), ws (first stream) and the
 * testing layer (mock mode); each caller decides what a failed load means.
 *
 * The CommonJS build loads with `require`, the ES module build with `import()`. A CommonJS module
 * run by a test runner's module system (Jest's) has that system's `require` but may have no
 * `import()` at all: Jest gives its VM no dynamic import callback unless Node runs with
 * --experimental-vm-modules. `require` also keeps the CommonJS build in one module graph, so the
 * testing layer it loads shares the caller's copy of the main entry (its classes, `instanceof`).
 */
export function runtimeImport<T>(specifier: string): Promise<T> {
  if (typeof MATCH_VENUE_CJS_BUILD === 'boolean' && MATCH_VENUE_CJS_BUILD) {
    // Inside a promise, so that a throwing require is a rejection like a failed import().
    return new Promise<T>((resolve) => resolve(require(specifier) as T));
  }
  return import(/* webpackIgnore: true */ /* @vite-ignore */ specifier) as Promise<T>;
}

/** Why a {@link runtimeImport} failed, as messages quote it. */
export interface LoadFailure {
  /** The specifier's own package could not be found (not installed, or bundled away). */
  missing: boolean;
  /** The underlying error: its code, its first line, and what the code means where it is obscure. */
  reason: string;
}

// Codes whose own text does not say what to do about them, with what they mean here.
const NO_DYNAMIC_IMPORT =
  'this code runs inside a vm context that cannot import(), such as Jest loading the ES module ' +
  "build without --experimental-vm-modules; require('match-venue') loads the CommonJS build, " +
  'which needs no flag';
const EXPLAINED: Record<string, string> = {
  // Jest's VM without the flag, and a vm context made without an importModuleDynamically.
  ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING_FLAG: NO_DYNAMIC_IMPORT,
  ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING: NO_DYNAMIC_IMPORT,
  ERR_REQUIRE_ESM: 'an ES module was required from CommonJS, which this Node version refuses',
};

const NOT_FOUND = new Set(['MODULE_NOT_FOUND', 'ERR_MODULE_NOT_FOUND']);

/** The package part of a bare specifier: `ws`, `match-venue` of `match-venue/testing`, `@a/b`. */
function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return (specifier.startsWith('@') ? parts.slice(0, 2) : parts.slice(0, 1)).join('/');
}

/** Whether `text` quotes `name` or one of its subpaths: `'ws'`, `'match-venue/testing'`. */
function quotes(text: string, name: string): boolean {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`'${escaped}(?:/[^']*)?'`).test(text);
}

/**
 * What went wrong when `specifier` could not be loaded: whether its package is simply absent, and
 * the underlying error quoted with its code, so that a message built on it names the real cause
 * (a dependency that is missing or will not load, a runtime without `import()`) rather than a guess.
 */
export function describeLoadFailure(specifier: string, error: unknown): LoadFailure {
  const { code, message } = (typeof error === 'object' && error !== null ? error : {}) as {
    code?: unknown;
    message?: unknown;
  };
  const text = (typeof message === 'string' ? message : String(error)).split('\n')[0]!.trim();
  const codeText = typeof code === 'string' ? code : undefined;
  // Node, Jest and vitest all quote the package they looked for; a dependency of the module that
  // is missing is another cause, reported as what it is.
  const missing =
    (codeText === undefined || NOT_FOUND.has(codeText)) &&
    /^Cannot find (?:module|package)\b/.test(text) &&
    quotes(text, packageOf(specifier));
  const explained = codeText && EXPLAINED[codeText];
  const reason = `${codeText ? `${codeText}: ` : ''}${text}${explained ? ` (${explained})` : ''}`;
  return { missing, reason };
}
