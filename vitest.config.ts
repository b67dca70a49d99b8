import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (p: string) => fileURLToPath(new URL(`./src/${p}`, import.meta.url));

export default defineConfig({
  resolve: {
    // Tests import the package by its published name; during tests that name is the source tree.
    alias: [
      { find: /^match-venue\/simulator$/, replacement: src('simulator/index.ts') },
      { find: /^match-venue\/msw$/, replacement: src('testing/msw.ts') },
      { find: /^match-venue\/testing$/, replacement: src('testing/index.ts') },
      { find: /^match-venue\/webhooks$/, replacement: src('webhooks/index.ts') },
      { find: /^match-venue\/webhooks\/testing$/, replacement: src('webhooks/testing/index.ts') },
      { find: /^match-venue$/, replacement: src('index.ts') },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    typecheck: { enabled: true, include: ['test/**/*.test-d.ts'] },
    testTimeout: 20_000,
    hookTimeout: 20_000,
    reporters: ['default', ['json', { outputFile: 'reports/vitest.json' }]],
    pool: 'forks',
  },
});
