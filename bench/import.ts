/**
 * Cold import cost of each public entry point, as whole processes: `node -e "await import(...)"`
 * (and `require(...)` for CommonJS) against a bare `node -e ''` started in the same round.
 *
 * Method: rounds; in each round every variant starts once, in a rotating order, so that drift of a
 * shared machine hits all of them alike. Reported per variant: median wall time over rounds, its
 * interquartile range, the added milliseconds over bare node (median of per-round differences) and
 * the ratio of medians. Measures dist/ (what users install): `npm run build` first.
 *   npx tsx bench/import.ts              (15 rounds)
 *   npx tsx bench/import.ts --rounds 30
 *   npx tsx bench/import.ts --against ../baseline   (adds that checkout's main entry, built, to
 *                                                     the same rounds: before and after, paired)
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

export interface ImportBenchRow {
  variant: string;
  medianMs: number;
  iqrMs: string;
  /** Median over rounds of (this variant − bare node in the same round). */
  addedMs: number;
  /** median(variant) / median(bare node). */
  ratio: number;
}

// Entry points by their package specifier: resolved through the package's own `exports` (a
// self-reference from the repo root), exactly as an installed copy resolves them.
const ENTRIES = ['match-venue', 'match-venue/webhooks', 'match-venue/simulator', 'match-venue/testing'];

interface Variant {
  name: string;
  code: string;
  /** The checkout whose package the specifier resolves to. */
  cwd: string;
}

function variants(against?: string): Variant[] {
  const list: Variant[] = [{ name: "bare node -e ''", code: '', cwd: root }];
  for (const entry of ENTRIES)
    list.push({ name: `import '${entry}'`, code: `await import('${entry}')`, cwd: root });
  list.push({ name: "require('match-venue')", code: "require('match-venue')", cwd: root });
  if (against) {
    list.push({ name: "import 'match-venue' (against)", code: "await import('match-venue')", cwd: against });
    list.push({ name: "require('match-venue') (against)", code: "require('match-venue')", cwd: against });
  }
  return list;
}

function runOnce({ code, cwd }: Variant): number {
  const started = process.hrtime.bigint();
  const out = spawnSync(
    process.execPath,
    code.startsWith('await') ? ['--input-type=module', '-e', code] : ['-e', code],
    {
      cwd,
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (out.status !== 0) throw new Error(`${code} failed: ${out.stderr.toString().slice(0, 500)}`);
  return ms;
}

const quantile = (sorted: readonly number[], q: number): number => {
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return (sorted[lo] ?? 0) + ((sorted[hi] ?? 0) - (sorted[lo] ?? 0)) * (at - lo);
};

export function benchImport(rounds = 15, against?: string): ImportBenchRow[] {
  for (const dir of [root, ...(against ? [against] : [])])
    if (!existsSync(`${dir}/dist/index.js`))
      throw new Error(`${dir}/dist/ is missing: run \`npm run build\` there first`);
  const list = variants(against && resolve(against));
  const times = list.map(() => [] as number[]);
  // One unmeasured start of each warms the file system cache.
  for (const v of list) runOnce(v);
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < list.length; k++) {
      const i = (k + r) % list.length;
      (times[i] as number[]).push(runOnce(list[i] as Variant));
    }
  }
  const bare = times[0] as number[];
  const bareMedian = quantile(
    [...bare].sort((a, b) => a - b),
    0.5,
  );
  return list.map((v, i) => {
    const own = times[i] as number[];
    const sorted = [...own].sort((a, b) => a - b);
    const added = own.map((t, r) => t - (bare[r] ?? 0)).sort((a, b) => a - b);
    const median = quantile(sorted, 0.5);
    return {
      variant: v.name,
      medianMs: Math.round(median),
      iqrMs: `${Math.round(quantile(sorted, 0.25))}–${Math.round(quantile(sorted, 0.75))}`,
      addedMs: Math.round(quantile(added, 0.5)),
      ratio: Number((median / bareMedian).toFixed(2)),
    };
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const at = process.argv.indexOf('--rounds');
  const rounds = at > 0 ? Number(process.argv[at + 1]) : 15;
  const against = process.argv.indexOf('--against');
  const rows = benchImport(rounds, against > 0 ? process.argv[against + 1] : undefined);
  console.table(rows);
  const main = rows.find((r) => r.variant === "import 'match-venue'");
  if (main) console.log(`cold import 'match-venue': +${main.addedMs} ms over bare node (target <= +100 ms)`);
}
