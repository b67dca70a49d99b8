import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    // Public entries of the testing layer (src/testing/README.md): `./simulator` is the simulator's
    // own API plus createMockVenue; `./testing` is what mock mode loads.
    'simulator/index': 'src/testing/simulator.ts',
    'simulator/cli': 'src/simulator/cli.ts',
    'msw/index': 'src/testing/msw.ts',
    'testing/index': 'src/testing/index.ts',
    'webhooks/index': 'src/webhooks/index.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
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
