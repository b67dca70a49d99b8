import { delimiter } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { scaled } from './test/helpers/time-limits.js';

const src = (p: string) => fileURLToPath(new URL(`./src/${p}`, import.meta.url));

// better-sqlite3, the store's optional peer, is installed in test/ (test/package.json), where the
// tests find it; the store in src/ loads it with require, which walks up from src/ and would not.
// NODE_PATH stands in for the node_modules of a user's app that installed it. Set before vitest
// starts its workers, so they and every process a test starts inherit it.
process.env.NODE_PATH = [
  fileURLToPath(new URL('./test/node_modules', import.meta.url)),
  process.env.NODE_PATH,
]
  .filter(Boolean)
  .join(delimiter);

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
    // The test-local installs (scripts/local-installs.ts), when their lockfiles changed.
    globalSetup: ['test/global-setup.ts'],
    typecheck: { enabled: true, include: ['test/**/*.test-d.ts'] },
    // Bounds, not measurements: they grow with the machine's load (test/helpers/time-limits.ts).
    testTimeout: scaled(20_000),
    hookTimeout: scaled(20_000),
    reporters: ['default', ['json', { outputFile: 'reports/vitest.json' }]],
    pool: 'forks',
    // Two files at a time even on two cores (vitest's default is one fewer than the cores): most
    // files spend their time waiting on child processes, sockets and installs, not computing.
    maxWorkers: 2,
  },
});
