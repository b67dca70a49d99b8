/**
 * Where the store's writer thread (writer-thread.ts) starts from: the file the build made next to
 * the package's simulator, or, where the store's own modules run as TypeScript (vitest, tsx), the
 * source itself. Found when the store is created, so a missing file is a StoreUnavailableError
 * naming it and what makes it, not a thread that dies unseen.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { StoreUnavailableError } from './sqlite.js';

/** The built thread's name in dist/simulator/ (tsup.config.ts builds it from writer-thread.ts). */
export const WRITER_FILE = 'store-writer.js';

/**
 * The URL a Worker starts the writer thread from; `from` is the URL of the module asking (this
 * one, wherever the build put it). Throws StoreUnavailableError when there is none.
 */
export function writerEntry(from: string = import.meta.url): URL {
  const path = fileURLToPath(from);
  if (path.endsWith('.ts')) return sourceEntry(from);
  // The build splits code shared by its entries into chunks at dist/'s top, and keeps in an entry
  // (dist/simulator/index.js, cli.js) what only that entry uses: this module is in one or the other.
  const dir = dirname(path);
  const file = join(basename(dir) === 'simulator' ? dir : join(dir, 'simulator'), WRITER_FILE);
  if (!existsSync(file))
    throw new StoreUnavailableError(
      `store cannot start its writer thread: ${file} is missing. It is built with the package: run ` +
        '`npm run build` in a checkout of match-venue, or reinstall match-venue if it came from a registry.',
    );
  return pathToFileURL(file);
}

/**
 * The TypeScript source, loaded through tsx's API (a devDependency: only a checkout runs the store
 * from src/). A worker gets no loader from its parent (vitest's transform stays in the test's
 * thread, and Node 20 neither passes module.register hooks to a worker nor runs `--import` from a
 * worker's execArgv), so a small ES module loads the source through tsx in the thread; from a
 * data: URL it is an ES module whatever flags started the process. tsx's CommonJS `require`, as
 * its ESM `tsImport` resolves its own hooks wrongly when the path found here (its `require`
 * condition) is imported; the thread uses nothing only an ES module has.
 */
function sourceEntry(from: string): URL {
  const thread = new URL('./writer-thread.ts', from).href;
  let tsx: string;
  try {
    tsx = pathToFileURL(createRequire(from).resolve('tsx/cjs/api')).href;
  } catch (err) {
    throw new StoreUnavailableError(
      `store cannot start its writer thread from source (${fileURLToPath(thread)}) without tsx, a ` +
        'devDependency of match-venue: run `npm install` in the checkout, or use the built package (`npm run build`).',
      { cause: err },
    );
  }
  const [tsxUrl, threadUrl] = [tsx, thread].map((u) => JSON.stringify(u));
  const code = `const tsx = await import(${tsxUrl});\ntsx.require(${threadUrl}, ${threadUrl});\n`;
  return new URL(`data:text/javascript,${encodeURIComponent(code)}`);
}
