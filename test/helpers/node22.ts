// test/node22/: Node 22 and the test-only tools that want it (msw 3, the OpenAPI client generator),
// installed by scripts/local-installs.ts apart from test/ and the root (see its package.json). The
// tests that need them run them in a child process of that Node.
import { execFile, type ExecFileOptions } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const node22 = fileURLToPath(new URL('../node22', import.meta.url));

export const node22Manifest = JSON.parse(readFileSync(join(node22, 'package.json'), 'utf8')) as {
  devDependencies: Record<string, string>;
  optionalDependencies: Record<string, string>;
};

/** The registry's package of the Node binary for this platform. */
export const node22Package = `node-${process.platform === 'win32' ? 'win' : process.platform}-${process.arch}`;

export const node22Binary = join(
  node22,
  'node_modules',
  node22Package,
  'bin',
  process.platform === 'win32' ? 'node.exe' : 'node',
);

/** The registry publishes Node binaries for some platforms only; elsewhere there is nothing to run. */
export const node22Available = node22Package in node22Manifest.optionalDependencies;

/** Throws, naming the set-up command, when Node 22 or `tool` is missing from test/node22. */
export function assertNode22(tool: string): void {
  if (!existsSync(node22Binary) || !existsSync(join(node22, 'node_modules', tool, 'package.json')))
    throw new Error(
      `Node 22 and ${tool} are not installed in test/node22: run \`npm run setup:test\` (vitest runs it first)`,
    );
}

/** Runs Node 22 with `args`; resolves with its stdout, rejects with its stderr. */
export function runNode22(args: string[], options: ExecFileOptions): Promise<string> {
  return new Promise((done, fail) => {
    execFile(node22Binary, args, { ...options, encoding: 'utf8' }, (error, out, err) =>
      error ? fail(new Error(`${error.message}\n${err}`)) : done(out),
    );
  });
}
