/**
 * Bundle weight of the main entry: what a bot's bundler makes of `import { MatchVenue } from
 * 'match-venue'` (esbuild, minified, tree-shaken, split into chunks at every literal `import()`),
 * raw and gzip. The main bundle is what loads at import: the entry chunk and every chunk it imports
 * statically, each compressed on its own as it is served or read. The lazy chunks (the account
 * mirror, the waits, the telemetry of an observed call, the recording: loaded on first use) are
 * listed apart.
 *
 * The main bundle is also broken down per contributing package. A package's raw share is exact
 * (its bytes in the main bundle's chunks, from esbuild's metafile); its gzip share is what it adds:
 * the main bundle's gzip size minus that of the same bundle with the package left out (marked
 * external), since compression works across package boundaries. The SDK's own row is the main
 * bundle with every package left out.
 *
 * Measures dist/ (what users install; `npm run build` first) unless `--source`, which bundles
 * src/index.ts directly; `--dist DIR` measures another build (the tree before a change, say).
 * `--platform browser` asks what an edge or browser bundle would carry.
 *   npm run size
 *   npm run size -- --source
 *   npm run size -- --dist /tmp/before/dist
 *   npm run size -- --names MatchVenue,usd
 *   npm run size -- --platform browser
 *
 * Then the simulator dashboard's page weight (bench/dashboard-size.ts).
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type Metafile } from 'esbuild';
import { measureDashboard } from './dashboard-size.js';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The goal for the main bundle (issue 35), in kB gzip. */
export const MAIN_GOAL_KB = 50;

export interface SizeOptions {
  /** Bundle src/index.ts instead of dist/index.js. Default false. */
  source?: boolean;
  /** The dist/ folder to measure. Default this repository's. */
  dist?: string;
  /** esbuild's platform. Default 'node'. */
  platform?: 'node' | 'browser' | 'neutral';
  /** What the bot imports. Default `{ MatchVenue }`. */
  names?: readonly string[];
}

export interface SizeRow {
  /** A package name, `match-venue` for the SDK's own code, or `(total)`. */
  part: string;
  rawKB: number;
  gzipKB: number;
}

/** A chunk loaded on first use, named by the SDK folders (or packages) its bytes come from. */
export interface LazyRow {
  chunk: string;
  /** Its largest sources, by bytes: `src/state`, `src/core/telemetry`, ... */
  holds: string;
  rawKB: number;
  gzipKB: number;
}

export interface SizeReport {
  build: 'dist' | 'source';
  /** What the bot imports. */
  names: readonly string[];
  platform: string;
  /** The main bundle: `(total)` first, then each package. */
  rows: SizeRow[];
  /** The chunks the main bundle loads with `import()`, largest first. */
  lazy: LazyRow[];
  /** esbuild's complaints (a `--platform browser` bundle of a Node-only module lists them here). */
  errors: string[];
}

const kb = (bytes: number): number => Number((bytes / 1024).toFixed(1));

/** `node_modules/<pkg>` (scoped names included) of a metafile input path; the SDK's own files otherwise. */
function packageOf(input: string): string {
  const match = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
  return match?.[1] ?? 'match-venue';
}

interface Split {
  /** The main bundle's chunks: the entry and what it imports statically, transitively. */
  main: string[];
  /** Every other JavaScript chunk (reached only through `import()`). */
  lazy: string[];
  /** Each output's text, by its metafile path. */
  code: Map<string, string>;
  metafile: Metafile;
}

async function bundle(
  entry: string,
  names: readonly string[],
  platform: NonNullable<SizeOptions['platform']>,
  external: readonly string[],
): Promise<{ split: Split | undefined; errors: string[] }> {
  // A file rather than stdin: esbuild splits only entry points it reads from disk.
  const work = mkdtempSync(join(tmpdir(), 'mv-size-'));
  const bot = join(work, 'bot.ts');
  writeFileSync(
    bot,
    `import { ${names.join(', ')} } from ${JSON.stringify(entry)};\nconsole.log(${names.join(', ')});\n`,
  );
  try {
    const result = await build({
      entryPoints: [bot],
      absWorkingDir: work,
      outdir: join(work, 'out'),
      bundle: true,
      splitting: true,
      minify: true,
      treeShaking: true,
      platform,
      format: 'esm',
      target: 'es2022',
      write: false,
      metafile: true,
      logLevel: 'silent',
      external: [...external],
      nodePaths: [join(root, 'node_modules')],
      // A bot's own tsconfig has no `paths` pointing into this repo's src/.
      tsconfigRaw: {},
    });
    const code = new Map<string, string>();
    for (const file of result.outputFiles) code.set(resolve(file.path), file.text);
    const outputs = result.metafile.outputs;
    const js = Object.keys(outputs).filter((path) => path.endsWith('.js'));
    const entryChunk = js.find((path) => outputs[path]?.entryPoint !== undefined);
    const main = new Set<string>();
    const visit = (path: string): void => {
      if (main.has(path)) return;
      main.add(path);
      for (const dep of outputs[path]?.imports ?? [])
        if (dep.kind === 'import-statement' && !dep.external) visit(dep.path);
    };
    if (entryChunk) visit(entryChunk);
    const text = new Map(js.map((path) => [path, code.get(resolve(work, path)) ?? '']));
    const lazy = js.filter((path) => !main.has(path));
    return { split: { main: [...main], lazy, code: text, metafile: result.metafile }, errors: [] };
  } catch (failure) {
    const errors = (failure as { errors?: { text: string }[] }).errors;
    if (!errors) throw failure;
    return { split: undefined, errors: errors.map((e) => e.text) };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const gzipBytes = (code: string): number => gzipSync(code).length;

/** Raw and gzip bytes of some chunks, each compressed on its own. */
function weigh(split: Split, chunks: readonly string[]): { raw: number; gzip: number } {
  let raw = 0;
  let gzip = 0;
  for (const chunk of chunks) {
    const code = split.code.get(chunk) ?? '';
    raw += Buffer.byteLength(code);
    gzip += gzipBytes(code);
  }
  return { raw, gzip };
}

/** Bytes of `chunks` that came from each package, per esbuild's metafile. */
function bytesByPackage(split: Split, chunks: readonly string[]): Map<string, number> {
  const by = new Map<string, number>();
  for (const chunk of chunks) {
    for (const [input, info] of Object.entries(split.metafile.outputs[chunk]?.inputs ?? {})) {
      const part = packageOf(input);
      by.set(part, (by.get(part) ?? 0) + info.bytesInOutput);
    }
  }
  return by;
}

/**
 * What a lazy chunk holds, by its largest inputs: SDK folders (`src/state`) when bundling the
 * source, the package's own chunks by name (`account-mirror`, `observed-call`) when bundling dist/,
 * packages by name.
 */
function holds(split: Split, chunk: string): string {
  const by = new Map<string, number>();
  for (const [input, info] of Object.entries(split.metafile.outputs[chunk]?.inputs ?? {})) {
    const part = packageOf(input);
    // A built file (`account-mirror-<hash>.js`, `chunk-<hash>.js`), or a source file under src/.
    const built = /(?:^|\/)src\//.test(input) ? undefined : /([\w-]+?)(?:-[A-Z0-9]{8})?\.js$/.exec(input);
    const name =
      part !== 'match-venue'
        ? part
        : built
          ? built[1] === 'chunk'
            ? 'shared chunk'
            : built[1]!
          : input.replace(/^.*?\/?src\//, 'src/').replace(/\/[^/]+$/, '');
    by.set(name, (by.get(name) ?? 0) + info.bytesInOutput);
  }
  return (
    [...by]
      .filter(([, bytes]) => bytes > 0)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 3)
      .map(([name]) => name)
      .join(', ') || `${chunk.replace(/^.*\//, '').replace(/(-[A-Z0-9]{8})+\.js$/, '')} (re-exports)`
  );
}

export async function measureSize(options: SizeOptions = {}): Promise<SizeReport> {
  const source = options.source ?? false;
  const entry = source ? `${root}src/index.ts` : join(options.dist ?? `${root}dist`, 'index.js');
  if (!source && !existsSync(entry)) throw new Error(`${entry} is missing: run \`npm run build\` first`);
  const platform = options.platform ?? 'node';
  const names = options.names ?? ['MatchVenue'];
  const whole = await bundle(entry, names, platform, []);
  const report: SizeReport = {
    build: source ? 'source' : 'dist',
    names,
    platform,
    rows: [],
    lazy: [],
    errors: whole.errors,
  };
  const split = whole.split;
  if (!split) return report;
  const total = weigh(split, split.main);
  report.rows.push({ part: '(total)', rawKB: kb(total.raw), gzipKB: kb(total.gzip) });
  const parts = [...bytesByPackage(split, split.main)].filter(([, bytes]) => bytes > 0);
  parts.sort((a, b) => b[1] - a[1]);
  const packages = parts.map(([part]) => part).filter((part) => part !== 'match-venue');
  for (const [part, bytes] of parts) {
    const without = await bundle(entry, names, platform, part === 'match-venue' ? packages : [part]);
    const rest = without.split ? weigh(without.split, without.split.main).gzip : 0;
    const gzip = part === 'match-venue' ? rest : total.gzip - rest;
    report.rows.push({ part, rawKB: kb(bytes), gzipKB: kb(gzip) });
  }
  const name = (chunk: string) => chunk.replace(/^.*\//, '');
  for (const chunk of split.lazy) {
    const { raw, gzip } = weigh(split, [chunk]);
    // A chunk no `import()` names holds code that several lazy chunks share: named by them.
    const importers = split.lazy.filter((other) =>
      split.metafile.outputs[other]?.imports.some(
        (dep) => dep.path === chunk && dep.kind === 'import-statement',
      ),
    );
    const dynamic = Object.values(split.metafile.outputs).some((output) =>
      output.imports.some((dep) => dep.path === chunk && dep.kind === 'dynamic-import'),
    );
    report.lazy.push({
      chunk: name(chunk),
      holds: dynamic
        ? holds(split, chunk)
        : `shared by ${importers.map((other) => holds(split, other).replace(' (re-exports)', '')).join(', ')}`,
      rawKB: kb(raw),
      gzipKB: kb(gzip),
    });
  }
  report.lazy.sort((a, b) => b.rawKB - a.rawKB);
  return report;
}

/** The verdict line against the goal of issue 35 (50 kB gzip for what loads at import). */
export function describeSize(report: SizeReport): string {
  const total = report.rows[0];
  if (!total) return 'no bundle';
  const verdict = total.gzipKB <= MAIN_GOAL_KB ? 'met' : 'NOT met';
  const lazyRaw = report.lazy.reduce((sum, row) => sum + row.rawKB, 0);
  const lazyGzip = report.lazy.reduce((sum, row) => sum + row.gzipKB, 0);
  const lazy =
    report.lazy.length > 0
      ? `; ${report.lazy.length} lazy chunks, ${lazyRaw.toFixed(1)} kB raw, ${lazyGzip.toFixed(1)} kB gzip`
      : '; no lazy chunk';
  const errors = report.errors.length > 0 ? `; ${report.errors.length} esbuild errors` : '';
  return `main bundle of { ${report.names.join(', ')} } (${report.build}, platform ${report.platform}, minified, split): ${total.rawKB} kB raw, ${total.gzipKB} kB gzip (goal ${MAIN_GOAL_KB} kB gzip: ${verdict})${lazy}${errors}`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const flag = (name: string) => {
    const at = process.argv.indexOf(name);
    return at > 0 ? process.argv[at + 1] : undefined;
  };
  const report = await measureSize({
    source: process.argv.includes('--source'),
    dist: flag('--dist'),
    names: flag('--names')?.split(','),
    platform: flag('--platform') as SizeOptions['platform'],
  });
  console.log('main bundle (loads at import):');
  console.table(report.rows);
  if (report.lazy.length > 0) {
    console.log('lazy chunks (load on first use):');
    console.table(report.lazy);
  }
  for (const error of report.errors.slice(0, 20)) console.log(`esbuild: ${error}`);
  console.log(describeSize(report));
  const page = measureDashboard();
  console.table(page);
  console.log(
    `dashboard page (/_sim/ui, every file it loads): ${page[0]?.rawKB} kB raw, ${page[0]?.gzipKB} kB gzip`,
  );
}
