// Checks the published artifacts (dist/), not the source: `npm test` builds before running vitest.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const dist = join(root, 'dist');

/** Every file reachable from `entry` through static imports (dynamic `import()` is deliberately not followed). */
function staticGraph(entry: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = readFileSync(file, 'utf8');
    for (const m of code.matchAll(/(?:^|[;\n])\s*(?:import|export)\s[^;'"]*?from\s*['"](\.[^'"]+)['"]/g)) {
      visit(resolve(dirname(file), m[1]!));
    }
    for (const m of code.matchAll(/(?:^|[;\n])\s*import\s*['"](\.[^'"]+)['"]/g)) {
      visit(resolve(dirname(file), m[1]!));
    }
  };
  visit(entry);
  return [...seen];
}

/** Runs a snippet in a fresh node process from the repo root, so `match-venue` resolves through package.json exports to dist/. */
function node(args: string[]): string {
  return execFileSync(process.execPath, args, { cwd: root, encoding: 'utf8' }).trim();
}

describe('built package', () => {
  it('exists (npm test builds it first; run `npm run build` when running this file alone)', () => {
    expect(existsSync(join(dist, 'index.js'))).toBe(true);
  });

  it('loads every entry as ESM through the package name', () => {
    const out = node([
      '--input-type=module',
      '-e',
      `const m = await import('match-venue');
       const s = await import('match-venue/simulator');
       const w = await import('match-venue/webhooks');
       const h = await import('match-venue/msw');
       const t = await import('match-venue/testing');
       const wt = await import('match-venue/webhooks/testing');
       console.log([typeof m.MatchVenue, typeof m.usd, typeof s.createSimulator, typeof s.createMockVenue,
         typeof s.getMockSimulator, Object.keys(w).length > 0, Object.keys(h).length > 0,
         typeof t.createMockVenue, typeof t.getMockSimulator, typeof wt.createV2TestSigner,
         typeof w.createV2TestSigner].join(','));`,
    ]);
    // The simulator entry is the simulator alone: the mock venue and mock mode are match-venue/testing's;
    // the webhook test signers are match-venue/webhooks/testing's, not the production entry's.
    expect(out).toBe(
      'function,function,function,undefined,undefined,true,true,function,function,function,undefined',
    );
  });

  it('loads the main entry, the simulator and the webhook test signers as CommonJS', () => {
    const out = node([
      '-e',
      `const m = require('match-venue'); const s = require('match-venue/simulator');
       const wt = require('match-venue/webhooks/testing');
       console.log([typeof m.MatchVenue, typeof s.createSimulator, m.usd('1000').amount,
         typeof wt.createSnsTestSigner].join(','));`,
    ]);
    expect(out).toBe('function,function,1000.00,function');
  });

  it('keeps the simulator and msw out of the main entry', () => {
    const files = staticGraph(join(dist, 'index.js'));
    const code = files.map((f) => readFileSync(f, 'utf8')).join('\n');
    expect(code).not.toMatch(/clearOrders|checkInvariants|from ['"]msw|require\(['"]msw/);
    const cjs = readFileSync(join(dist, 'index.cjs'), 'utf8');
    expect(cjs).not.toMatch(/clearOrders|checkInvariants|require\(['"]msw/);
  });

  it('publishes types with none of the pipeline: the client holds it, its declarations are stripped', () => {
    for (const file of ['index.d.ts', 'index.d.cts']) {
      const types = readFileSync(join(dist, file), 'utf8');
      expect(types, file).toMatch(/declare class MatchVenue \{\n {4}#private;/);
      expect(
        types.match(
          /\b(ClientCore|FinalRequest|endpointPage|unknownKeys|MockBinding)\b|\brequest<|\bendpoint</g,
        ),
        file,
      ).toBe(null);
    }
  });

  it('loads mock mode through a specifier no bundler can follow', () => {
    // The main entry names no testing, simulator or msw subpath as a literal a bundler could resolve:
    // mock mode imports `match-venue/testing` through a specifier assembled at run time.
    for (const file of [...staticGraph(join(dist, 'index.js')), join(dist, 'index.cjs')]) {
      const code = readFileSync(file, 'utf8');
      expect(code).not.toMatch(
        /\b(?:import|require)\s*\(\s*['"`]match-venue\/(?:testing|simulator|msw)['"`]/,
      );
      expect(code).not.toMatch(
        /^\s*(?:import|export)\b[^;'"`]*from\s*['"]match-venue\/(?:testing|simulator|msw)['"]/m,
      );
    }
    const out = node([
      '--input-type=module',
      '-e',
      `const main = await import('match-venue');
       const venue = new main.MatchVenue({ environment: 'mock', apiKey: 'TEST_API_KEY:burner:sim' });
       const account = await venue.account.retrieve();
       const testing = await import('match-venue/testing');
       const sim = await testing.getMockSimulator();
       console.log([account.stablecoin.available.amount, typeof sim.clearAuction, 'getMockSimulator' in main].join(','));`,
    ]);
    expect(out).toBe('100000000.00,function,false');
  });

  it('carries jose in the CommonJS build (an ES module only, which Jest cannot require) and imports it in the ESM build', () => {
    const built = (ext: string) =>
      readdirSync(dist, { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith(ext))
        .map((f) => readFileSync(join(dist, f), 'utf8'))
        .join('\n');
    const cjs = built('.cjs');
    expect(cjs).not.toMatch(/require\(['"]jose['"]\)/);
    // esbuild names each bundled file in a comment.
    expect(cjs).toMatch(/^\/\/ node_modules\/jose\/dist\//m);
    expect(built('.js')).toMatch(/from ['"]jose['"]/);
    expect(readFileSync(join(dist, 'jose.LICENSE.md'), 'utf8')).toMatch(/MIT License[\s\S]*Filip Skokan/);
  });

  it('ships the simulator CLI with a shebang', () => {
    const cli = readFileSync(join(dist, 'simulator/cli.js'), 'utf8');
    expect(cli.startsWith('#!/usr/bin/env node')).toBe(true);
  });
});
