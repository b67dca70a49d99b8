/**
 * Bundle weight of the main entry: what a bot's bundler makes of `import { MatchVenue } from
 * 'match-venue'` (esbuild, minified, tree-shaken), in total and per contributing package, raw and
 * gzip. A package's raw share is exact (its bytes in the output, from esbuild's metafile); its gzip
 * share is what it adds: the bundle's gzip size minus that of the same bundle with the package left
 * out (marked external), since compression works across package boundaries. The SDK's own row is
 * the bundle with every package left out.
 *
 * Measures dist/ (what users install; `npm run build` first) unless `--source`, which bundles
 * src/index.ts directly. `--platform browser` asks what an edge or browser bundle would carry.
 *   npm run size
 *   npm run size -- --source
 *   npm run size -- --platform browser
 *
 * Then the simulator dashboard's page weight (bench/dashboard-size.ts).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type Metafile } from 'esbuild';
import { measureDashboard } from './dashboard-size.js';

const root = fileURLToPath(new URL('..', import.meta.url));

export interface SizeOptions {
  /** Bundle src/index.ts instead of dist/index.js. Default false. */
  source?: boolean;
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

export interface SizeReport {
  build: 'dist' | 'source';
  platform: string;
  rows: SizeRow[];
  /** esbuild's complaints (a `--platform browser` bundle of a Node-only module lists them here). */
  errors: string[];
}

const kb = (bytes: number): number => Number((bytes / 1024).toFixed(1));

/** `node_modules/<pkg>` (scoped names included) of a metafile input path; the SDK's own files otherwise. */
function packageOf(input: string): string {
  const match = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
  return match?.[1] ?? 'match-venue';
}

/** Bytes of the output that came from each package, per esbuild's metafile. */
function bytesByPackage(metafile: Metafile): Map<string, number> {
  const by = new Map<string, number>();
  for (const output of Object.values(metafile.outputs)) {
    for (const [input, info] of Object.entries(output.inputs)) {
      const part = packageOf(input);
      by.set(part, (by.get(part) ?? 0) + info.bytesInOutput);
    }
  }
  return by;
}

async function bundle(
  entry: string,
  names: readonly string[],
  platform: NonNullable<SizeOptions['platform']>,
  external: readonly string[],
): Promise<{ code: string; metafile: Metafile | undefined; errors: string[] }> {
  try {
    const result = await build({
      stdin: {
        contents: `import { ${names.join(', ')} } from ${JSON.stringify(entry)};\nconsole.log(${names.join(', ')});\n`,
        resolveDir: root,
        loader: 'ts',
      },
      bundle: true,
      minify: true,
      treeShaking: true,
      platform,
      format: 'esm',
      target: 'es2022',
      write: false,
      metafile: true,
      logLevel: 'silent',
      external: [...external],
      // A bot's own tsconfig has no `paths` pointing into this repo's src/.
      tsconfigRaw: {},
    });
    return { code: result.outputFiles[0]?.text ?? '', metafile: result.metafile, errors: [] };
  } catch (failure) {
    const errors = (failure as { errors?: { text: string }[] }).errors;
    if (!errors) throw failure;
    return { code: '', metafile: undefined, errors: errors.map((e) => e.text) };
  }
}

const gzipBytes = (code: string): number => gzipSync(code).length;

export async function measureSize(options: SizeOptions = {}): Promise<SizeReport> {
  const source = options.source ?? false;
  const entry = source ? `${root}src/index.ts` : `${root}dist/index.js`;
  if (!source && !existsSync(entry)) throw new Error('dist/ is missing: run `npm run build` first');
  const platform = options.platform ?? 'node';
  const names = options.names ?? ['MatchVenue'];
  const whole = await bundle(entry, names, platform, []);
  const report: SizeReport = { build: source ? 'source' : 'dist', platform, rows: [], errors: whole.errors };
  if (!whole.metafile) return report;
  const totalGzip = gzipBytes(whole.code);
  report.rows.push({ part: '(total)', rawKB: kb(Buffer.byteLength(whole.code)), gzipKB: kb(totalGzip) });
  const parts = [...bytesByPackage(whole.metafile)].filter(([, bytes]) => bytes > 0);
  parts.sort((a, b) => b[1] - a[1]);
  const packages = parts.map(([part]) => part).filter((part) => part !== 'match-venue');
  for (const [part, bytes] of parts) {
    const without =
      part === 'match-venue'
        ? await bundle(entry, names, platform, packages)
        : await bundle(entry, names, platform, [part]);
    const gzip = part === 'match-venue' ? gzipBytes(without.code) : totalGzip - gzipBytes(without.code);
    report.rows.push({ part, rawKB: kb(bytes), gzipKB: kb(gzip) });
  }
  return report;
}

/** The verdict line against the bar (150 kB gzip) and goal (80 kB gzip). */
export function describeSize(report: SizeReport): string {
  const total = report.rows[0];
  if (!total) return 'no bundle';
  const verdict =
    total.gzipKB <= 80
      ? 'within the 80 kB goal'
      : total.gzipKB <= 150
        ? 'within the 150 kB bar'
        : 'OVER the 150 kB bar';
  const errors = report.errors.length > 0 ? `; ${report.errors.length} esbuild errors` : '';
  return `bundle of { MatchVenue } (${report.build}, platform ${report.platform}, minified): ${total.rawKB} kB raw, ${total.gzipKB} kB gzip (${verdict})${errors}`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const at = process.argv.indexOf('--platform');
  const platform = at > 0 ? (process.argv[at + 1] as SizeOptions['platform']) : undefined;
  const report = await measureSize({ source: process.argv.includes('--source'), platform });
  console.table(report.rows);
  for (const error of report.errors.slice(0, 20)) console.log(`esbuild: ${error}`);
  console.log(describeSize(report));
  const page = measureDashboard();
  console.table(page);
  console.log(
    `dashboard page (/_sim/ui, every file it loads): ${page[0]?.rawKB} kB raw, ${page[0]?.gzipKB} kB gzip`,
  );
}
