import { rmSync } from 'node:fs';
import { defineConfig } from 'tsup';

const entry = {
  index: 'src/index.ts',
  // Public entries of the testing layer (src/testing/README.md): `./simulator` is the simulator's
  // own API plus createMockVenue; `./testing` is what mock mode loads.
  'simulator/index': 'src/testing/simulator.ts',
  'simulator/cli': 'src/simulator/cli.ts',
  'msw/index': 'src/testing/msw.ts',
  'testing/index': 'src/testing/index.ts',
  'webhooks/index': 'src/webhooks/index.ts',
};
// The CLI is a bin, not an import: it needs no types.
const { 'simulator/cli': _cli, ...importable } = entry;

export default defineConfig({
  entry,
  format: ['esm', 'cjs'],
  dts: { entry: importable },
  clean: true,
  // Maps are kept so that stack traces (node --enable-source-maps) and debuggers land on the
  // TypeScript line, but without `sourcesContent`: the package ships src/ once ("files" in
  // package.json) and every map's `sources` points into it, where embedded contents were a second
  // and third copy of the sources (ESM and CJS) and 60% of the unpacked size. A tool that follows a
  // map finds the file it names. test/package/tarball.test.ts checks both halves.
  sourcemap: true,
  esbuildOptions(options) {
    options.sourcesContent = false;
  },
  // tsup builds every entry in every format, and splitting shares one chunk graph per format; the
  // bin (package.json "bin") is the ESM file, so its CommonJS twin, which nothing refers to, is
  // removed once built rather than shipped (a separate ESM-only build would duplicate the whole
  // simulator into the CLI).
  async onSuccess() {
    for (const file of ['dist/simulator/cli.cjs', 'dist/simulator/cli.cjs.map'])
      rmSync(file, { force: true });
  },
  target: 'node20',
  platform: 'node',
  splitting: true,
  treeshake: true,
  // Mock mode loads the testing layer through the package's own subpath, so the main
  // entry never bundles it (see src/internal/README.md).
  external: [
    'match-venue',
    'match-venue/simulator',
    'match-venue/msw',
    'match-venue/testing',
    'match-venue/webhooks',
  ],
});
