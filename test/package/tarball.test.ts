// What a reader of the published tarball gets (`npm pack --dry-run`): the licence, the metadata
// registries and tools show, links that resolve, no stray CommonJS CLI, and source maps that point
// at sources shipped once. Reads dist/ as built: `npm test` builds first.
import { readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Packed, packList, root } from './pack.js';

let packed: Packed;
let shipped: Set<string>;
beforeAll(() => {
  packed = packList();
  shipped = new Set(packed.files.map((f) => f.path));
}, 60_000);

const read = (path: string) => readFileSync(posix.join(root, path), 'utf8');
const pkg = JSON.parse(read('package.json')) as Record<string, unknown>;

/** Markdown without its fenced code blocks, where `#` starts a shell comment and `](` is code. */
const prose = (markdown: string) => markdown.replace(/^```[^\n]*\n[\s\S]*?^```[ \t]*$/gm, '');

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

/** Targets of inline links and images: `[text](target)` / `![alt](target "title")`. */
const linkTargets = (markdown: string) =>
  [...prose(markdown).matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!);

describe('published tarball', () => {
  it('carries an MIT LICENSE that matches package.json', () => {
    expect(shipped.has('LICENSE')).toBe(true);
    expect(pkg.license).toBe('MIT');
    const license = read('LICENSE');
    expect(license).toMatch(/^MIT License\n\nCopyright \(c\) 2026 match-venue contributors\n/);
    expect(license).toContain('THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND');
  });

  it('names its repository, home page, issue tracker and keywords', () => {
    const repository = pkg.repository as { type?: string; url?: string } | undefined;
    expect(repository?.type).toBe('git');
    const match = /^git\+(https:\/\/github\.com\/[\w.-]+\/[\w.-]+)\.git$/.exec(repository?.url ?? '');
    expect(match, `repository.url: ${repository?.url}`).not.toBeNull();
    const home = match![1]!;
    expect(pkg.homepage).toBe(`${home}#readme`);
    expect(pkg.bugs).toEqual({ url: `${home}/issues` });
    expect(pkg.keywords).toEqual(expect.arrayContaining(['stablecoin', 'sdk', 'simulator']));
  });

  it('resolves every relative link of every shipped Markdown file to a shipped file or heading', () => {
    const docs = [...shipped].filter((p) => p.endsWith('.md'));
    expect(docs).toEqual(expect.arrayContaining(['README.md', 'docs/AUCTION.md', 'docs/PROTOCOL.md']));
    const broken: string[] = [];
    let checked = 0;
    for (const doc of docs) {
      const text = read(doc);
      const anchors = new Set([...prose(text).matchAll(/^#{1,6}\s+(.+)$/gm)].map((m) => slug(m[1]!)));
      for (const target of linkTargets(text)) {
        if (/^[a-z][a-z\d+.-]*:/i.test(target)) continue; // https:, mailto:: not in the tarball
        checked++;
        const [path = '', anchor] = target.split('#');
        if (path === '') {
          if (!anchors.has(anchor ?? '')) broken.push(`${doc}: ${target} (no such heading)`);
          continue;
        }
        const file = posix.normalize(posix.join(posix.dirname(doc), decodeURIComponent(path)));
        if (!shipped.has(file)) broken.push(`${doc}: ${target} (${file} is not in the tarball)`);
      }
    }
    expect(broken).toEqual([]);
    // README links docs/AUCTION.md, docs/PROTOCOL.md, docs/ERRORS.md, src/simulator/README.md,
    // src/webhooks/README.md and its own mock-mode section at least.
    expect(checked).toBeGreaterThanOrEqual(6);
  });

  it('names no file outside the package in a shipped Markdown file, not even in a code span', () => {
    // A link is checked above; a path written as code (`../shared/spec/…`) sends a reader to a
    // file they do not have just the same.
    const outside: string[] = [];
    for (const doc of [...shipped].filter((p) => p.endsWith('.md'))) {
      for (const m of prose(read(doc)).matchAll(/`(\.\.\/[^`\s]+)`/g)) {
        const file = posix.normalize(posix.join(posix.dirname(doc), m[1]!));
        if (!shipped.has(file)) outside.push(`${doc}: ${m[1]} (${file})`);
      }
    }
    expect(outside).toEqual([]);
  });

  it('ships every file each "exports" subpath names, with a "typesVersions" twin for each', () => {
    const exports = pkg.exports as Record<string, unknown>;
    expect(Object.keys(exports)).toEqual([
      '.',
      './simulator',
      './msw',
      './testing',
      './webhooks',
      './webhooks/testing',
      './package.json',
    ]);
    const targets: string[] = [];
    const collect = (value: unknown): void => {
      if (typeof value === 'string') targets.push(value);
      else if (value && typeof value === 'object') Object.values(value).forEach(collect);
    };
    collect(exports);
    const missing = targets.map((t) => t.replace(/^\.\//, '')).filter((file) => !shipped.has(file));
    expect(missing).toEqual([]);
    // Node 10-style resolution (TypeScript's `moduleResolution: node`) reads typesVersions instead.
    const typesVersions = (pkg.typesVersions as Record<string, Record<string, string[]>>)['*'] ?? {};
    const subpaths = Object.keys(exports)
      .filter((key) => key !== '.' && key !== './package.json')
      .map((key) => key.slice(2));
    expect(Object.keys(typesVersions).sort()).toEqual(subpaths.sort());
    for (const [subpath, [types]] of Object.entries(typesVersions)) {
      const require = (exports[`./${subpath}`] as { require: { types: string } }).require;
      expect(types, subpath).toBe(require.types);
    }
  });

  it('ships the CLI only as the ESM file the bin names, without types', () => {
    expect(pkg.bin).toEqual({ 'match-venue-sim': './dist/simulator/cli.js' });
    expect(shipped.has('dist/simulator/cli.js')).toBe(true);
    const strays = [...shipped].filter((p) => /^dist\/simulator\/cli\.(cjs|d\.c?ts)/.test(p));
    expect(strays).toEqual([]);
  });

  it("ships the store's writer thread as the one built file a Worker starts, and its source", () => {
    // src/simulator/store/writer-entry.ts starts dist/simulator/store-writer.js; no CommonJS twin
    // (both builds start the ES module), no types, and no generated copy of it in src/ any more.
    const writer = [...shipped].filter((p) => /store-writer|writer-thread/.test(p)).sort();
    expect(writer).toEqual([
      'dist/simulator/store-writer.js',
      'dist/simulator/store-writer.js.map',
      'src/simulator/store/writer-thread.ts',
    ]);
  });

  it('ships source maps naming shipped sources without embedding them (bundled jose: embedded)', () => {
    const maps = [...shipped].filter((p) => p.endsWith('.map'));
    expect(maps.length).toBeGreaterThan(0);
    const problems: string[] = [];
    let named = 0;
    for (const map of maps) {
      const { sources = [], sourcesContent } = JSON.parse(read(map)) as {
        sources?: string[];
        sourcesContent?: (string | null)[];
      };
      for (const [index, source] of sources.entries()) {
        named++;
        const file = posix.normalize(posix.join(posix.dirname(map), source));
        const embedded = typeof sourcesContent?.[index] === 'string';
        if (file.startsWith('src/')) {
          if (!shipped.has(file)) problems.push(`${map}: ${source} -> ${file}`);
          if (embedded) problems.push(`${map}: embeds ${file}`);
        } else if (!(file.startsWith('node_modules/jose/') && map.endsWith('.cjs.map') && embedded)) {
          // Only the copy of jose the CommonJS build carries is not the package's source; its map
          // embeds it, since the package does not ship it.
          problems.push(`${map}: ${source} -> ${file}`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(named).toBeGreaterThan(0);
  });
});
