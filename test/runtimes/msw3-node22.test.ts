// msw 3 needs Node >= 22.12 and CI runs Node 20, so this runs test/runtimes/msw3-client.mjs under
// Node 22 with msw 3, both from test/node22/ (a separate install, which scripts/local-installs.ts
// makes before vitest runs; a Node binary package in the root install would shadow `node` on every
// npm script's PATH). Its limits grow with the machine's load (helpers/time-limits.ts). The client is a bot's folder outside the repository with the
// built SDK (dist/) as node_modules/match-venue, so that match-venue/msw imports msw 3, not the
// root's msw 2. Offline: everything is on disk already.
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  assertNode22,
  node22,
  node22Available,
  node22Manifest,
  node22Package,
  runNode22,
} from '../helpers/node22.js';
import { scaled } from '../helpers/time-limits.js';
import { assertBuilt, here, root } from './harness.js';

const manifest = node22Manifest;
const platformPackage = node22Package;
const available = node22Available;

let bot: string;

beforeAll(() => {
  if (!available) return;
  assertBuilt();
  assertNode22('msw');
  bot = mkdtempSync(join(tmpdir(), 'mv-msw3-'));
  writeFileSync(join(bot, 'package.json'), JSON.stringify({ name: 'bot', private: true, type: 'module' }));
  const modules = join(bot, 'node_modules');
  mkdirSync(join(modules, 'match-venue'), { recursive: true });
  // A copy, not a link: through a link to this repository, dist/msw would find the root's msw 2.
  cpSync(join(root, 'dist'), join(modules, 'match-venue/dist'), { recursive: true });
  cpSync(join(root, 'package.json'), join(modules, 'match-venue/package.json'));
  const sdk = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  for (const dependency of Object.keys(sdk.dependencies)) {
    symlinkSync(join(root, 'node_modules', dependency), join(modules, dependency), 'dir');
  }
  symlinkSync(join(node22, 'node_modules/msw'), join(modules, 'msw'), 'dir');
  cpSync(join(here, 'msw3-client.mjs'), join(bot, 'client.mjs'));
  symlinkSync(join(root, 'node_modules/@types'), join(modules, '@types'), 'dir');
});

afterAll(() => {
  if (bot) rmSync(bot, { recursive: true, force: true });
});

it.skipIf(!available)(
  `a client with no transport option goes through msw 3 on Node 22 (${platformPackage})`,
  async () => {
    const stdout = await runNode22(['client.mjs'], { cwd: bot, timeout: scaled(25_000) });
    const result = JSON.parse(stdout.trim().split('\n').at(-1)!);
    expect(result).toEqual({
      node: manifest.optionalDependencies[platformPackage],
      msw: manifest.devDependencies.msw,
      accountId: '10000000-0000-4000-8000-0000000000ac',
      placed: 'pending',
      // msw answered every request, and refused the unhandled one itself: no real server saw a socket.
      unhandled: 'MV_CONNECTION',
      whileListening: { handled: 0, unhandled: 0 },
      afterClose: { handled: 1 },
    });
  },
  scaled(30_000),
);

it.skipIf(!available)(
  "match-venue/msw's types compile against msw 3's",
  async () => {
    writeFileSync(
      join(bot, 'suite.ts'),
      [
        "import { createHandlers } from 'match-venue/msw';",
        "import { createSimulator } from 'match-venue/simulator';",
        "import { setupServer } from 'msw/node';",
        "const server = setupServer(...createHandlers(createSimulator(), { baseUrl: 'https://venue.test' }));",
        "server.listen({ onUnhandledFrame: 'error' });",
        '',
      ].join('\n'),
    );
    const compilerOptions = {
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      target: 'ES2022',
      lib: ['ES2023', 'DOM'],
      types: ['node'],
      strict: true,
      noEmit: true,
      // What a suite sees: its calls checked against both packages' declarations (not the
      // declarations themselves, which take the box several times as long).
      skipLibCheck: true,
    };
    writeFileSync(join(bot, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['suite.ts'] }));
    const output = await new Promise<string>((done) => {
      execFile(
        process.execPath,
        [join(root, 'node_modules/typescript/bin/tsc'), '-p', bot],
        { cwd: bot, timeout: scaled(25_000) },
        (error, out) => done(error ? `exit ${error.code}: ${out}` : 'ok'),
      );
    });
    expect(output).toBe('ok');
  },
  scaled(30_000),
);
