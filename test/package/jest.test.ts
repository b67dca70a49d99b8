// A downstream Jest 30 suite, as the projects that use Jest run it: the packed package installed in
// a folder outside the repository (the install shared with quickstart.test.ts: shared-app.ts), and
// the suites of test/package/jest-suite/ run by Jest in three projects of that folder:
// CommonJS TypeScript through ts-jest, CommonJS plain JavaScript through babel-jest, and ES module
// plain JavaScript through Jest's native ESM. Each does mock mode, createMockVenue, a stream and
// (where msw itself loads) the msw handlers. Reads dist/ as built (`npm test` builds first).
import { execFile } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '../helpers/time-limits.js';
import { root } from './pack.js';
import { userEnv } from './shell.js';
import { APP_DEV, sharedApp } from './shared-app.js';

const suites = join(root, 'test/package/jest-suite');
/** Jest and ts-jest are test/'s (test/package.json), TypeScript the root's: one version in both. */
type Lock = { packages: Record<string, { version: string; peerDependencies?: Record<string, string> }> };
const readLock = (folder: string) =>
  (JSON.parse(readFileSync(join(root, folder, 'package-lock.json'), 'utf8')) as Lock).packages;
const lock = { ...readLock('.'), ...readLock('test') };

/** The README's Jest install command (Mock mode): the packages, as specs, a ts-jest user installs. */
function readmeJestInstall(): string[] {
  const readme = readFileSync(join(root, 'README.md'), 'utf8').replace(/\n/g, ' ');
  const command = /`npm i -D ([^`]*\bts-jest\b[^`]*)`/.exec(readme);
  if (!command) throw new Error('README.md has no `npm i -D ... ts-jest ...` command');
  return command[1]!.trim().split(/\s+/);
}

/** `typescript@5` -> ['typescript', '5']; `@types/jest` -> ['@types/jest', undefined]. */
function splitSpec(spec: string): [string, string | undefined] {
  const at = spec.indexOf('@', 1);
  return at < 0 ? [spec, undefined] : [spec.slice(0, at), spec.slice(at + 1)];
}
const RUN_TIMEOUT_MS = scaled(120_000);

interface Project {
  name: string;
  /** package.json of the project: its module type and its Jest configuration. */
  manifest: Record<string, unknown>;
  /** Fixture file -> its name in the project. */
  files: Record<string, string>;
  /** Extra environment of the Jest run. */
  env?: NodeJS.ProcessEnv;
  /** The tests its suite holds. */
  tests: number;
}

const projects: Project[] = [
  {
    name: 'CommonJS TypeScript (ts-jest)',
    manifest: {
      type: 'commonjs',
      jest: {
        testTimeout: 20_000,
        transform: {
          '^.+\\.ts$': 'ts-jest',
          // msw's ES-module-only dependencies, which Jest's CommonJS mode cannot require before
          // Node 24.9, compiled to CommonJS like the suite (README, Mock mode): msw's need, not
          // this package's.
          '^.+\\.m?js$': ['ts-jest', { tsconfig: { allowJs: true, module: 'commonjs' }, diagnostics: false }],
        },
        transformIgnorePatterns: ['/node_modules/(?!(rettime|until-async|@open-draft)/)'],
      },
    },
    files: { 'venue.ts-jest.ts': 'venue.test.ts' },
    tests: 4,
  },
  {
    name: 'CommonJS plain JavaScript (babel-jest)',
    manifest: { type: 'commonjs', jest: { testTimeout: 20_000 } },
    files: { 'venue.cjs.js': 'venue.test.js', 'venue-checks.cjs': 'venue-checks.cjs' },
    tests: 4,
  },
  {
    name: 'ES module plain JavaScript (native ESM)',
    manifest: { type: 'module', jest: { testTimeout: 20_000, transform: {} } },
    files: { 'venue.esm.js': 'venue.test.js', 'venue-checks.cjs': 'venue-checks.cjs' },
    // Jest's own switch for ES module test files; the package adds none.
    env: { NODE_OPTIONS: '--experimental-vm-modules' },
    tests: 5,
  },
];

/** What `jest --json` reports, as far as read here. */
interface JestResult {
  success: boolean;
  numPassedTests: number;
  numFailedTests: number;
  numTotalTests: number;
  testResults: { message: string; assertionResults: { fullName: string; status: string }[] }[];
}

describe("the README's Jest install command", () => {
  it('pins a TypeScript ts-jest can use, and this suite installs what it names at those majors', () => {
    const specs = readmeJestInstall();
    const names = specs.map((spec) => splitSpec(spec)[0]);
    expect(names).toEqual(expect.arrayContaining(['jest', 'ts-jest', 'typescript']));
    const typescript = specs.map(splitSpec).find(([name]) => name === 'typescript')?.[1];
    // ts-jest's peer range (">=4.3 <7"): a bare install of typescript takes the newest, 7.
    const range = lock['node_modules/ts-jest']!.peerDependencies!.typescript!;
    const below = Number(/<\s*(\d+)/.exec(range)?.[1]);
    expect(Number(typescript)).toBeLessThan(below);
    for (const [name, major] of specs.map(splitSpec)) {
      if (major !== undefined)
        expect(lock[`node_modules/${name}`]!.version).toMatch(new RegExp(`^${major}\\.`));
    }
    expect(readLock('.')['node_modules/typescript']!.version).toBe(
      readLock('test')['node_modules/typescript']!.version,
    );
  });

  it('names packages the shared install has (with those the suites use besides)', () => {
    const names = readmeJestInstall().map((spec) => splitSpec(spec)[0]);
    expect(APP_DEV).toEqual(expect.arrayContaining([...names, '@types/node', 'msw']));
  });
});

describe('a downstream Jest suite, with the packed package', () => {
  /** This run's folder in the shared app, holding one folder per project. */
  let work: string;

  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  beforeAll(async () => {
    // What the README tells a ts-jest user to install (at the lockfiles' versions, which the tests
    // above hold to the README's majors), plus what these suites use besides.
    const app = await sharedApp(scaled(150_000));
    work = mkdtempSync(join(app, 'jest-'));
    // The projects share the app's node_modules (Node and Jest look upwards for it), each with its
    // own package.json: its module type and its Jest configuration.
    for (const [index, project] of projects.entries()) {
      const dir = join(work, `project-${index}`);
      mkdirSync(dir);
      const manifest = { name: `project-${index}`, version: '1.0.0', private: true, ...project.manifest };
      writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
      for (const [from, to] of Object.entries(project.files)) copyFileSync(join(suites, from), join(dir, to));
    }
    writeFileSync(
      join(work, 'project-0/tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'commonjs',
          target: 'es2022',
          strict: true,
          esModuleInterop: true,
          types: ['jest', 'node'],
        },
      }),
    );
  }, scaled(160_000));

  it.each(projects.map((project, index) => ({ ...project, index })))(
    '$name: passes with no flag of the package',
    async ({ index, env, tests }) => {
      const dir = join(work, `project-${index}`);
      const out = join(dir, 'jest-result.json');
      // Jest's bin from the shared node_modules, as `npx jest` finds it; --ci: no snapshot writes.
      const run = await promisify(execFile)(
        process.execPath,
        [join(work, '../node_modules/jest/bin/jest.js'), '--ci', '--json', `--outputFile=${out}`],
        { cwd: dir, env: { ...userEnv(), ...env }, timeout: RUN_TIMEOUT_MS },
      ).catch((err: { stdout?: string; stderr?: string }) => err);
      // Jest exits non-zero when a test fails: the results file says which.
      if (!existsSync(out)) throw new Error(`Jest wrote no results:\n${run.stdout}\n${run.stderr}`);
      const result = JSON.parse(readFileSync(out, 'utf8')) as JestResult;
      const failures = `${result.testResults.map((r) => r.message).join('\n')}\n${run.stderr}`;
      expect(result.numFailedTests, failures).toBe(0);
      expect(result.success, failures).toBe(true);
      expect(result.numPassedTests).toBe(tests);
      expect(result.numTotalTests).toBe(tests);
    },
    RUN_TIMEOUT_MS + 10_000,
  );
});
