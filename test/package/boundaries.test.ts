// The layer boundaries of .dependency-cruiser.cjs (run by `npm run lint:deps` in `npm run check`):
// every rule fires on a deliberately wrong import in a small fixture tree, the real tree has none,
// and every temporary allowlist entry is still needed.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise as depcruise, type ICruiseOptions } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const configFile = join(root, '.dependency-cruiser.cjs');

interface Violation {
  from: string;
  to: string;
  rule: { name: string; severity: string };
}
interface Dependency {
  resolved: string;
  circular?: boolean;
}
interface CruiseResult {
  summary: { violations: Violation[]; error: number };
  modules: { source: string; dependencies: Dependency[] }[];
}

let options: ICruiseOptions;
beforeAll(async () => {
  options = await extractDepcruiseOptions(configFile);
});

/**
 * What `depcruise src --config .dependency-cruiser.cjs` (npm run lint:deps) finds with `dir` as the
 * project root (its tsconfig.json included), through the tool's API: one process, so the fixture
 * and the real tree cost one start-up.
 */
async function cruise(dir: string): Promise<CruiseResult> {
  const tsConfig = join(dir, 'tsconfig.json');
  const result = await depcruise(
    ['src'],
    { ...structuredClone(options), baseDir: dir, tsConfig: { fileName: tsConfig }, outputType: 'json' },
    {},
    { tsConfig: extractTSConfig(tsConfig) },
  );
  return (typeof result.output === 'string' ? JSON.parse(result.output) : result.output) as CruiseResult;
}

const tidy = (violations: Violation[]) =>
  violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`).sort((a, b) => a.localeCompare(b));

describe('layer boundaries (dependency-cruiser)', () => {
  const fixture = mkdtempSync(join(tmpdir(), 'mv-boundaries-'));
  afterAll(() => rmSync(fixture, { recursive: true, force: true }));

  const write = (file: string, text: string) => {
    mkdirSync(dirname(join(fixture, file)), { recursive: true });
    writeFileSync(join(fixture, file), text);
  };

  it('fires every rule, by name, on deliberately wrong imports and nowhere else', async () => {
    write(
      'tsconfig.json',
      JSON.stringify({
        compilerOptions: {
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          baseUrl: '.',
          paths: { 'match-venue': ['./src/index.ts'], 'match-venue/testing': ['./src/testing/index.ts'] },
        },
      }),
    );
    write('node_modules/msw/package.json', JSON.stringify({ name: 'msw', main: 'index.js' }));
    write('node_modules/msw/index.js', 'export const http = {};\n');

    // A correct miniature of the layers.
    write('src/validation/index.ts', 'export const string = () => 1;\n');
    write(
      'src/generated/validators.ts',
      "import { string } from '../validation/index.js';\nexport const Schema = string();\n",
    );
    write(
      'src/contract/ids.ts',
      "import { Schema } from '../generated/validators.js';\nexport const isUuid = () => Schema;\n",
    );
    write('src/core/validation.ts', "export { isUuid } from '../contract/ids.js';\n");
    write(
      'src/client/mock-mode.ts',
      // As in the real client: a specifier made at run time, which no tool or bundler follows.
      "const entry = ['match-venue', 'testing'].join('/');\nexport const load = () => import(entry);\n",
    );
    write(
      'src/resources/orders.ts',
      "import { isUuid } from '../core/validation.js';\nexport const orders = isUuid;\n",
    );
    write(
      'src/client/match-venue.ts',
      "import { load } from './mock-mode.js';\nimport { orders } from '../resources/orders.js';\n" +
        "import { stream } from '../stream/index.js';\nexport const client = [load, orders, stream];\n",
    );
    write('src/index.ts', "export { client } from './client/match-venue.js';\n");
    write('src/webhooks/index.ts', 'export const receiver = 1;\n');
    write('src/webhooks/sns-message.ts', 'export type SnsMessage = { a: 1 };\n');
    // The webhook crypto over the contract, shared by the simulator and the receiver toolkit.
    write(
      'src/webhook-crypto/signing.ts',
      "import { isUuid } from '../contract/ids.js';\nexport const sign = isUuid;\n",
    );
    write(
      'src/webhooks/verify.ts',
      "import { sign } from '../webhook-crypto/signing.js';\nexport const verify = sign;\n",
    );
    write(
      'src/simulator/index.ts',
      "import { isUuid } from '../contract/ids.js';\nimport { sign } from '../webhook-crypto/signing.js';\n" +
        "import { string } from '../validation/index.js';\nexport const sim = [isUuid, sign, string];\n",
    );
    write(
      'src/testing/index.ts',
      "import { client } from 'match-venue';\nimport { sim } from '../simulator/index.js';\nexport const t = [client, sim];\n",
    );
    write(
      'src/testing/msw.ts',
      "import { http } from 'msw';\nimport { t } from './index.js';\nexport const h = [http, t];\n",
    );

    // The simulator's sub-layers, correct: engine, market on it, ui on http, serve, the root, the CLI.
    write('src/simulator/engine/types.ts', 'export type Phase = 1;\n');
    // The engine's state, read inside engine/ (its private module), as engine.ts and its helpers do.
    write('src/simulator/engine/state.ts', 'export type EngineState = { a: 1 };\n');
    write(
      'src/simulator/engine/engine.ts',
      "import type { EngineState } from './state.js';\nexport type Engine = { state: EngineState };\n",
    );
    write(
      'src/simulator/market/config.ts',
      "import type { Phase } from '../engine/types.js';\nexport const market = 1 as Phase;\n",
    );
    write(
      'src/simulator/scenario/run.ts',
      "import { market } from '../market/config.js';\nexport const run = market;\n",
    );
    write(
      'src/simulator/http/router.ts',
      "import { run } from '../scenario/run.js';\nexport const router = run;\n",
    );
    write(
      'src/simulator/ui/serve.ts',
      "import { router } from '../http/router.js';\nexport const ui = router;\n",
    );
    write(
      'src/simulator/platform/routes.ts',
      "import { router } from '../http/router.js';\nexport const platform = router;\n",
    );
    write(
      'src/simulator/serve/listen.ts',
      "import { ui } from '../ui/serve.js';\nexport const listen = ui;\n",
    );
    write(
      'src/simulator/simulator.ts',
      "import { listen } from './serve/listen.js';\nexport const simulator = listen;\n",
    );
    write(
      'src/simulator/cli/args.ts',
      "import { router } from '../http/router.js';\nexport const args = router;\n",
    );
    write(
      'src/simulator/cli.ts',
      "import { args } from './cli/args.js';\nimport { simulator } from './simulator.js';\n" +
        'export const cli = [args, simulator];\n',
    );

    // One wrong import per rule; the assertions below also prove that the correct imports are clean.
    write(
      'src/simulator/__probe__.ts',
      "import { client } from '../client/match-venue.js';\nexport const p = client;\n",
    );
    // A simulator file reaching into the receiver toolkit (as signers.ts did while it was allowlisted,
    // before the signing pieces moved to src/contract/ and src/webhook-crypto/): an error like any other.
    write(
      'src/simulator/platform/signers.ts',
      "import type { SnsMessage } from '../../webhooks/sns-message.js';\n" +
        "import { isUuid } from '../../core/validation.js';\nexport type S = SnsMessage;\nexport const u = isUuid;\n",
    );
    // Arrows back up inside the simulator, one per sub-layer rule.
    write(
      'src/simulator/engine/__probe__.ts',
      "import { market } from '../market/config.js';\nexport const p = market;\n",
    );
    // The engine's state reached from outside engine/ (a market writing it behind the engine's back).
    write(
      'src/simulator/market/__probe__.ts',
      "import type { EngineState } from '../engine/state.js';\nexport type P = EngineState;\n",
    );
    write(
      'src/simulator/store/__probe__.ts',
      "import { run } from '../scenario/run.js';\nexport const p = run;\n",
    );
    write(
      'src/simulator/scenario/__probe__.ts',
      "import { router } from '../http/router.js';\nexport const p = router;\n",
    );
    write(
      'src/simulator/ws/__probe__.ts',
      "import { listen } from '../serve/listen.js';\nexport const p = listen;\n",
    );
    // The HTTP binding naming the platform (as http/handler.ts did for the platform's 404 and 405).
    write(
      'src/simulator/http/__probe__.ts',
      "import { platform } from '../platform/routes.js';\nexport const p = platform;\n",
    );
    write(
      'src/simulator/platform/__probe__.ts',
      "import { ui } from '../ui/serve.js';\nexport const p = ui;\n",
    );
    write(
      'src/simulator/serve/__probe__.ts',
      "import { simulator } from '../simulator.js';\nexport const p = simulator;\n",
    );
    write('src/simulator/options.ts', "import { args } from './cli/args.js';\nexport const p = args;\n");
    // The shared crypto reaching into one of the sides that share it, and the contract reaching up into it.
    write(
      'src/webhook-crypto/__probe__.ts',
      "import { verify } from '../webhooks/verify.js';\nexport const p = verify;\n",
    );
    write(
      'src/contract/__probe__.ts',
      "import { sign } from '../webhook-crypto/signing.js';\nexport const p = sign;\n",
    );
    write(
      'src/core/__probe__.ts',
      "import type { orders } from '../resources/orders.js';\nexport type P = typeof orders;\n",
    );
    // The validation library knows no rule of the API: it imports nothing of the others.
    write(
      'src/validation/__probe__.ts',
      "import { isUuid } from '../contract/ids.js';\nexport const p = isUuid;\n",
    );
    write(
      'src/generated/__probe__.ts',
      "import { isUuid } from '../core/validation.js';\nexport const p = isUuid;\n",
    );
    write(
      'src/resources/__probe__.ts',
      "import type { sim } from '../simulator/index.js';\nexport type P = typeof sim;\n",
    );
    write(
      'src/testing/__probe__.ts',
      "import { isUuid } from '../core/validation.js';\nexport const p = isUuid;\n",
    );
    // The state layer reaching up into the resources (they build it; it never imports them).
    write(
      'src/state/__probe__.ts',
      "import { orders } from '../resources/orders.js';\nexport const p = orders;\n",
    );
    write('src/stream/cycle-a.ts', "import { b } from './cycle-b.js';\nexport const a = () => b;\n");
    write('src/stream/cycle-b.ts', "import { a } from './cycle-a.js';\nexport const b = () => a;\n");
    write('src/resources/types-c.ts', "import type { d } from './types-d.js';\nexport type C = typeof d;\n");
    write(
      'src/resources/types-d.ts',
      "import type { C } from './types-c.js';\nexport const d = 1 as unknown as C;\n",
    );
    write('src/webhooks/__probe__.ts', "import { nope } from './nope.js';\nexport const p = nope;\n");
    // The main entry reaching msw and the testing layer through a literal specifier it can follow.
    write(
      'src/stream/index.ts',
      "import { isUuid } from '../contract/ids.js';\nimport { http } from 'msw';\n" +
        "export const stream = [isUuid, http, () => import('match-venue/testing')];\n",
    );

    const found = tidy((await cruise(fixture)).summary.violations);
    // Each expectation must match a reported violation, and each violation an expectation. A cycle is
    // reported once, from whichever of its modules the tool meets first.
    const expected: RegExp[] = [
      /^simulator-imports-only-contract: src\/simulator\/__probe__\.ts -> src\/client\/match-venue\.ts$/,
      /^simulator-imports-only-contract: src\/simulator\/platform\/signers\.ts -> src\/core\/validation\.ts$/,
      /^simulator-imports-only-contract: src\/simulator\/platform\/signers\.ts -> src\/webhooks\/sns-message\.ts$/,
      /^simulator-engine-at-bottom: src\/simulator\/engine\/__probe__\.ts -> src\/simulator\/market\/config\.ts$/,
      /^engine-state-private: src\/simulator\/market\/__probe__\.ts -> src\/simulator\/engine\/state\.ts$/,
      /^simulator-market-and-store-on-engine: src\/simulator\/store\/__probe__\.ts -> src\/simulator\/scenario\/run\.ts$/,
      /^simulator-domain-under-bindings: src\/simulator\/scenario\/__probe__\.ts -> src\/simulator\/http\/router\.ts$/,
      /^simulator-bindings-under-serve: src\/simulator\/ws\/__probe__\.ts -> src\/simulator\/serve\/listen\.ts$/,
      /^simulator-http-under-bindings: src\/simulator\/http\/__probe__\.ts -> src\/simulator\/platform\/routes\.ts$/,
      /^simulator-ui-on-http: src\/simulator\/platform\/__probe__\.ts -> src\/simulator\/ui\/serve\.ts$/,
      /^simulator-serve-under-root: src\/simulator\/serve\/__probe__\.ts -> src\/simulator\/simulator\.ts$/,
      /^simulator-cli-on-top: src\/simulator\/options\.ts -> src\/simulator\/cli\/args\.ts$/,
      /^core-imports-only-core-and-contract: src\/core\/__probe__\.ts -> src\/resources\/orders\.ts$/,
      /^contract-imports-only-contract: src\/generated\/__probe__\.ts -> src\/core\/validation\.ts$/,
      /^contract-imports-only-contract: src\/contract\/__probe__\.ts -> src\/webhook-crypto\/signing\.ts$/,
      /^webhook-crypto-imports-only-contract: src\/webhook-crypto\/__probe__\.ts -> src\/webhooks\/verify\.ts$/,
      /^validation-imports-nothing: src\/validation\/__probe__\.ts -> src\/contract\/ids\.ts$/,
      /^state-imports-only-core-stream-contract: src\/state\/__probe__\.ts -> src\/resources\/orders\.ts$/,
      /^client-never-imports-simulator-or-testing: src\/resources\/__probe__\.ts -> src\/simulator\/index\.ts$/,
      /^client-never-imports-simulator-or-testing: src\/stream\/index\.ts -> src\/testing\/index\.ts$/,
      /^only-testing-imports-testing: src\/stream\/index\.ts -> src\/testing\/index\.ts$/,
      /^testing-uses-public-entries: src\/testing\/__probe__\.ts -> src\/core\/validation\.ts$/,
      /^entries-never-reach-simulator-testing-msw: src\/index\.ts -> node_modules\/msw\/index\.js$/,
      /^entries-never-reach-simulator-testing-msw: src\/index\.ts -> src\/testing\/index\.ts$/,
      /^entries-never-reach-simulator-testing-msw: src\/index\.ts -> src\/simulator\/index\.ts$/,
      /^no-circular: src\/stream\/cycle-[ab]\.ts -> src\/stream\/cycle-[ab]\.ts$/,
      /^no-circular-type-only: src\/stream\/cycle-[ab]\.ts -> src\/stream\/cycle-[ab]\.ts$/,
      /^no-circular-type-only: src\/resources\/types-[cd]\.ts -> src\/resources\/types-[cd]\.ts$/,
      // The literal import of match-venue/testing also closes a cycle back through the main entry.
      /^no-circular(-type-only)?: src\/(client\/match-venue\.ts|index\.ts|stream\/index\.ts|testing\/index\.ts) -> /,
      /^not-to-unresolvable: src\/webhooks\/__probe__\.ts -> \.\/nope\.js$/,
    ];
    for (const pattern of expected)
      expect(
        found.filter((line) => pattern.test(line)),
        String(pattern),
      ).not.toEqual([]);
    // Nothing else fired: in particular not on the run-time specifier in src/client/mock-mode.ts.
    expect(found.filter((line) => !expected.some((pattern) => pattern.test(line)))).toEqual([]);
    // And a type-only cycle is no run-time cycle.
    expect(found.filter((line) => /^no-circular: src\/resources\//.test(line))).toEqual([]);
  });

  it('finds no violation in the real tree, and every temporary allowlist entry is still needed', async () => {
    const result = await cruise(root);
    expect(tidy(result.summary.violations)).toEqual([]);

    const lists = (createRequire(import.meta.url)(configFile) as Record<string, unknown>)
      .temporaryAllowlists as {
      simulator: { from: string; to: string[] }[];
      typeCycles: string[];
    };
    const deps = new Map(result.modules.map((m) => [m.source, m.dependencies]));
    const stale: string[] = [];
    for (const entry of lists.simulator) {
      for (const to of entry.to) {
        if (!deps.get(entry.from)?.some((d) => d.resolved === to)) stale.push(`${entry.from} -> ${to}`);
      }
    }
    for (const file of lists.typeCycles) {
      if (!deps.get(file)?.some((d) => d.circular)) stale.push(`${file} (no longer on a cycle)`);
    }
    expect(stale, 'remove these from the temporary allowlists in .dependency-cruiser.cjs').toEqual([]);
  });
});
