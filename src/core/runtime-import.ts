/**
 * `import(specifier)` that no bundler follows (esbuild, rollup, webpack and vite follow only a
 * literal specifier): what it loads stays out of a bot's bundle, and Node resolves it from
 * node_modules only when it is asked for. Used for undici (first request), ws (first stream) and
 * the testing layer (mock mode); each caller decides what a failed load means.
 */
export function runtimeImport<T>(specifier: string): Promise<T> {
  return import(/* webpackIgnore: true */ /* @vite-ignore */ specifier) as Promise<T>;
}
