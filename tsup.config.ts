import { copyFileSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { defineConfig, type Options } from 'tsup';

type TsupPlugin = NonNullable<Options['plugins']>[number];

const entry = {
  index: 'src/index.ts',
  // `./simulator` is the simulator's own API, nothing of the testing layer; `./testing` (what mock
  // mode loads, createMockVenue) and `./msw` are the testing layer's (src/testing/README.md).
  'simulator/index': 'src/simulator/index.ts',
  'simulator/cli': 'src/simulator/cli.ts',
  'msw/index': 'src/testing/msw.ts',
  'testing/index': 'src/testing/index.ts',
  'webhooks/index': 'src/webhooks/index.ts',
  // The receiver's test signers, off the production entry.
  'webhooks/testing/index': 'src/webhooks/testing/index.ts',
  // No subpath (package.json exports none, and no types are made): an entry only so that the money
  // helpers, and decimal.js with them, sit in a chunk apart from the rest of the main entry, which
  // a bot's bundler then drops whole ("sideEffects": false) when the bot uses none of them. Inlined
  // into dist/index.js they kept decimal.js's import there, and decimal.js, which is not free of
  // side effects, in every bundle of the main entry: 13 of its 55 kB gzip (bench/size.ts).
  'internal/money': 'src/core/money.ts',
};
// The CLI is a bin (package.json "bin", the ESM file), not an import: it needs neither types nor a
// CommonJS twin; nor does the money chunk's entry, which nothing imports by name.
const { 'simulator/cli': _cli, 'internal/money': _money, ...importable } = entry;

const shared: Options = {
  // Maps are kept so that stack traces (node --enable-source-maps) and debuggers land on the
  // TypeScript line, but without `sourcesContent`: the package ships src/ once ("files" in
  // package.json) and every map's `sources` points into it, where embedded contents were a second
  // and third copy of the sources (ESM and CJS) and 60% of the unpacked size. A tool that follows a
  // map finds the file it names. test/package/tarball.test.ts checks both halves.
  sourcemap: true,
  target: 'node20',
  platform: 'node',
  splitting: true,
  treeshake: true,
  // Mock mode loads the testing layer through the package's own subpath, so the main
  // entry never bundles it (see src/testing/README.md).
  external: [
    'match-venue',
    'match-venue/simulator',
    'match-venue/msw',
    'match-venue/testing',
    'match-venue/webhooks',
    'match-venue/webhooks/testing',
  ],
};

// Declarations marked `@internal` (the resources' constructors taking the client's pipeline, the
// errors' constructors, inspectors) are left out of the published types, so the pipeline and its
// plumbing (`request`, `endpoint`, ...) appear in no .d.ts; the docs leave them out the same way.
const STRIP_INTERNAL = { stripInternal: true };

/** esbuild options of one format: no embedded sources, and the build flag runtimeImport reads. */
const esbuildOptionsFor =
  (cjs: boolean): Options['esbuildOptions'] =>
  (options) => {
    options.sourcesContent = false;
    // src/core/runtime-import.ts: the CommonJS build loads lazily with `require`, the ESM build
    // with `import()`.
    options.define = { ...options.define, MATCH_VENUE_CJS_BUILD: String(cjs) };
  };

/**
 * Embeds in each CommonJS map the contents of the sources that are not the package's own (jose's):
 * the maps point at src/, which the package ships, for everything else (see `sourcemap` above).
 */
function embedBundledSources(dir: string): void {
  const outsideSrc = (path: string) => relative('src', path).split(/[\\/]/)[0] === '..';
  const maps = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.cjs.map'));
  for (const file of maps.map((f) => join(dir, f))) {
    const map = JSON.parse(readFileSync(file, 'utf8')) as { sources: string[]; sourcesContent?: unknown };
    const paths = map.sources.map((source) => join(dirname(file), source));
    if (!paths.some(outsideSrc)) continue;
    map.sourcesContent = paths.map((path) => (outsideSrc(path) ? readFileSync(path, 'utf8') : null));
    writeFileSync(file, JSON.stringify(map));
  }
}

/**
 * The CommonJS build loads its own lazy chunks (src/core/lazy-chunk.ts: the account mirror, the
 * waits, the telemetry, the recording) with `require`, as runtime-import.ts loads packages:
 * esbuild writes the split CommonJS build as ES modules and rollup keeps their `import()` of a
 * chunk as it is, which a CommonJS module run by Jest's module system cannot call (no dynamic
 * import callback without --experimental-vm-modules), and which would load the chunk outside
 * require's cache. Only a literal `import('./<chunk>.cjs')` is rewritten; nothing follows it on
 * its line but the loader's closing, so the map (kept as esbuild made it) still lands every
 * position before it.
 */
const requireLazyChunks: TsupPlugin = {
  name: 'require-lazy-chunks',
  renderChunk(code) {
    if (this.format !== 'cjs') return undefined;
    const rewritten = code.replace(
      /\bimport\((['"])(\.\/[\w.-]+\.cjs)\1\)/g,
      (_, quote: string, path: string) => `Promise.resolve().then(() => require(${quote}${path}${quote}))`,
    );
    return rewritten === code ? undefined : { code: rewritten };
  },
};

// Two builds, one per format, since they differ in more than the output syntax: the CommonJS one
// carries jose inside it (below) and has no CLI; and the store's writer thread. All write into
// dist/ at once, so none may clean it; it is emptied here, once, before any starts.
export default defineConfig(() => {
  rmSync('dist', { recursive: true, force: true });
  return [
    {
      ...shared,
      entry,
      format: 'esm',
      dts: { entry: importable, compilerOptions: STRIP_INTERNAL },
      esbuildOptions: esbuildOptionsFor(false),
    },
    {
      ...shared,
      entry: importable,
      format: 'cjs',
      dts: { compilerOptions: STRIP_INTERNAL },
      esbuildOptions: esbuildOptionsFor(true),
      plugins: [requireLazyChunks],
      // jose (the simulator's ticket signer) is an ES module only, which a CommonJS program cannot
      // require on every Node this package supports, nor under Jest's module system on any Node
      // before 24.9: the CommonJS simulator carries its own copy (MIT). The ESM build imports the
      // installed jose.
      noExternal: ['jose'],
      // Its licence asks that the notice travel with every copy; its sources are not in the
      // package, so the maps carry what they show.
      async onSuccess() {
        copyFileSync('node_modules/jose/LICENSE.md', 'dist/jose.LICENSE.md');
        embedBundledSources('dist');
      },
    },
    {
      ...shared,
      // The store's writer thread, which a Worker starts from this file (src/simulator/store/
      // writer-entry.ts finds it from either format's simulator): one ES module, split from
      // nothing, so the thread loads only what it runs. No types: nothing imports it.
      entry: { 'simulator/store-writer': 'src/simulator/store/writer-thread.ts' },
      format: 'esm',
      splitting: false,
      esbuildOptions: esbuildOptionsFor(false),
    },
  ];
});
