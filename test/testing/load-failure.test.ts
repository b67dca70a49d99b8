// Why a lazy load failed, as mock mode reports it (streaming's message: test/runtimes/
// socket-factory.test.ts): only a package that is not there is reported as missing; anything else
// (a dependency that is missing, a VM without import()) is quoted with its code. The errors are
// Node's own where a test can provoke them, else their exact text.
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import vm from 'node:vm';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { describeLoadFailure } from '../../src/core/runtime-import.js';
import { mockLoadMessage } from '../../src/client/mock-mode.js';

const empty = mkdtempSync(join(tmpdir(), 'mv-load-'));
afterAll(() => rmSync(empty, { recursive: true, force: true }));

/** What `fn` threw or rejected with. */
async function thrown(fn: () => unknown): Promise<unknown> {
  try {
    await fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

/** Node's require from a folder with no node_modules: the package is not installed. */
const requireNotInstalled = () => thrown(() => createRequire(join(empty, 'bot.js'))('match-venue/testing'));
/** Node's own answer to import() in a vm context given no dynamic import callback. */
const vmImport = () => thrown(() => new vm.Script('import("match-venue/testing")').runInThisContext());
/** Jest's answer to import() in its VM when Node runs without --experimental-vm-modules. */
const jestVmImport = Object.assign(
  new TypeError('A dynamic import callback was invoked without --experimental-vm-modules'),
  { code: 'ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING_FLAG' },
);
/** Node's answer when the ES module build's own package is not installed. */
const esmNotInstalled = Object.assign(
  new Error("Cannot find package 'match-venue' imported from /bot/dist/main.js"),
  { code: 'ERR_MODULE_NOT_FOUND' },
);
/** The entry is there but one of its dependencies is not. */
const dependencyMissing = Object.assign(
  new Error(
    "Cannot find module 'jose'\nRequire stack:\n- /bot/node_modules/match-venue/dist/testing/index.cjs",
  ),
  { code: 'MODULE_NOT_FOUND' },
);

describe('describeLoadFailure', () => {
  it('calls only the package itself missing, by the code and the package it quotes', async () => {
    expect(describeLoadFailure('match-venue/testing', await requireNotInstalled())).toEqual({
      missing: true,
      reason: "MODULE_NOT_FOUND: Cannot find module 'match-venue/testing'",
    });
    expect(describeLoadFailure('match-venue/testing', esmNotInstalled).missing).toBe(true);
    expect(describeLoadFailure('match-venue/testing', dependencyMissing)).toEqual({
      missing: false,
      reason: "MODULE_NOT_FOUND: Cannot find module 'jose'",
    });
    // A package whose name merely starts the same is another package.
    const wsx = Object.assign(new Error("Cannot find module 'wsx'"), { code: 'MODULE_NOT_FOUND' });
    expect(describeLoadFailure('ws', wsx).missing).toBe(false);
  });

  it('explains a VM without import(), with the code Node gave', async () => {
    for (const error of [await vmImport(), jestVmImport]) {
      const { missing, reason } = describeLoadFailure('match-venue/testing', error);
      expect(missing).toBe(false);
      expect(reason).toMatch(
        /^ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING(_FLAG)?: A dynamic import callback was/,
      );
      expect(reason).toContain('--experimental-vm-modules');
      expect(reason).toContain("require('match-venue') loads the CommonJS build");
    }
  });

  it('quotes what is not an Error as it prints', () => {
    expect(describeLoadFailure('ws', 'nope')).toEqual({ missing: false, reason: 'nope' });
  });
});

describe('mock mode', () => {
  afterEach(() => {
    vi.doUnmock('../../src/core/runtime-import.js');
    vi.resetModules();
  });

  it('asks to keep the package installed only when its testing entry is not there', async () => {
    const message = mockLoadMessage(await requireNotInstalled());
    expect(message).toContain("could not load its simulator from 'match-venue/testing', which was not found");
    expect(message).toContain('keep the match-venue package installed (not bundled into a single file)');
    expect(mockLoadMessage(jestVmImport)).not.toContain('keep the match-venue package installed');
    expect(mockLoadMessage(dependencyMissing)).toBe(
      "Mock mode could not load its simulator from 'match-venue/testing': MODULE_NOT_FOUND: Cannot find module 'jose'.",
    );
  });

  it("rejects an environment: 'mock' call with the real cause as message and cause", async () => {
    vi.resetModules();
    // The loader itself rejects, as in Jest's VM: a module mock's failing factory would reach the
    // caller wrapped in the test runner's own error.
    vi.doMock('../../src/core/runtime-import.js', async (original) => ({
      ...(await original<typeof import('../../src/core/runtime-import.js')>()),
      runtimeImport: () => Promise.reject(jestVmImport),
    }));
    const { ConfigurationError, MatchVenue } = await import('../../src/index.js');
    const error = await thrown(() => new MatchVenue({ environment: 'mock' }).account.retrieve());
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).cause).toBe(jestVmImport);
    const { message } = error as Error;
    expect(message).toContain(
      "could not load its simulator from 'match-venue/testing': ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING_FLAG:",
    );
    expect(message).toContain('--experimental-vm-modules');
    expect(message).not.toContain('keep the match-venue package installed');
  });
});
