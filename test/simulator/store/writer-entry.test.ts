import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { StoreUnavailableError } from 'match-venue/simulator';
import { afterAll, describe, expect, it } from 'vitest';
import { WRITER_FILE, writerEntry } from '../../../src/simulator/store/writer-entry.js';

// Where the store's writer thread starts from (store/writer-entry.ts), for each place the build
// may put the module asking; test/package/dist-store.test.ts starts it from the real build.
const dist = mkdtempSync(join(tmpdir(), 'match-venue-writer-entry-'));
afterAll(() => rmSync(dist, { recursive: true, force: true }));
const at = (path: string) => pathToFileURL(join(dist, path)).href;

describe('store: where the writer thread starts from', () => {
  it('a built module finds dist/simulator/store-writer.js from a chunk at the top or an entry in simulator/', () => {
    mkdirSync(join(dist, 'simulator'));
    writeFileSync(join(dist, 'simulator', WRITER_FILE), '');
    const built = pathToFileURL(join(dist, 'simulator', WRITER_FILE)).href;
    for (const from of ['chunk-ABC.js', 'chunk-ABC.cjs', 'simulator/index.js', 'simulator/cli.js'])
      expect(writerEntry(at(from)).href, from).toBe(built);
    rmSync(join(dist, 'simulator', WRITER_FILE));
  });

  it('a built module without the file is refused, naming it and the command that builds it', () => {
    const missing = join(dist, 'simulator', WRITER_FILE);
    for (const from of ['chunk-ABC.cjs', 'simulator/index.js']) {
      const call = () => writerEntry(at(from));
      expect(call).toThrow(StoreUnavailableError);
      expect(call).toThrow(`${missing} is missing. It is built with the package: run \`npm run build\``);
    }
  });

  it('the source starts the TypeScript thread next to it through tsx, as an ES module', () => {
    const entry = writerEntry();
    expect(entry.protocol).toBe('data:');
    const code = decodeURIComponent(entry.pathname.replace(/^text\/javascript,/, ''));
    const thread = new URL('../../../src/simulator/store/writer-thread.ts', import.meta.url).href;
    expect(code).toContain(`.require(${JSON.stringify(thread)}, ${JSON.stringify(thread)})`);
    const tsx = /await import\("([^"]+)"\)/.exec(code)?.[1] as string;
    expect(fileURLToPath(tsx)).toMatch(/[\\/]node_modules[\\/]tsx[\\/]dist[\\/]cjs[\\/]api[\\/]/);
  });
});
