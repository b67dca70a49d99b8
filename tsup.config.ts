import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    'simulator/index': 'src/simulator/index.ts',
    'simulator/cli': 'src/simulator/cli.ts',
    'msw/index': 'src/msw/index.ts',
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
  // Mock mode loads the simulator through the package's own subpath, so the main
  // entry never bundles it (see src/internal/README.md).
  external: ['match-venue', 'match-venue/simulator', 'match-venue/msw', 'match-venue/webhooks'],
});
