// What `import 'match-venue'` loads, and what the first request adds: the packages a child process
// has loaded from node_modules at each point (ES modules through a module hook, CommonJS through
// require.cache). The source is checked through tsx; the built package (dist/, ESM and CommonJS)
// when it has been built (`npm test` builds first).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const work = mkdtempSync(join(tmpdir(), 'mv-lazy-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

// Every ES module Node loads passes this hook; it appends the URLs under node_modules to a log.
const hooks = join(work, 'hooks.mjs');
writeFileSync(
  hooks,
  `import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(\`
import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  if (url.includes('/node_modules/')) appendFileSync(process.env.MV_LOADED_LOG, url + '\\\\n');
  return next(url, context);
}\`));
`,
);

/** The packages loaded from node_modules in each phase of `script` (phases end at `mark()`). */
function phases(entry: string, format: 'esm' | 'cjs', viaTsx: boolean): string[][] {
  const log = join(work, `loaded-${Math.random().toString(36).slice(2)}.log`);
  writeFileSync(log, '');
  const load =
    format === 'esm'
      ? `await import(${JSON.stringify(pathToFileURL(entry).href)})`
      : `require(${JSON.stringify(entry)})`;
  const script = `
const { appendFileSync } = require('node:fs');
const cache = () => Object.keys(require.cache);
const mark = () => appendFileSync(process.env.MV_LOADED_LOG, cache().join('\\n') + '\\n--\\n');
(async () => {
  const { MatchVenue } = ${load};
  mark();
  // Nothing listens on port 9: the request fails after the transport is loaded.
  const venue = new MatchVenue({ apiKey: 'TEST_API_KEY:lazy:load', baseUrl: 'http://127.0.0.1:9', maxRetries: 0 });
  const outcome = await venue.account.retrieve().then(() => 'answered', (e) => e.name);
  if (outcome !== 'APIConnectionError') throw new Error('unexpected outcome ' + outcome);
  mark();
})().catch((e) => { console.error(e); process.exit(1); });
`;
  const args = [...(viaTsx ? ['--import', 'tsx'] : []), '--import', pathToFileURL(hooks).href, '-e', script];
  execFileSync(process.execPath, args, {
    cwd: root,
    env: { ...process.env, MV_LOADED_LOG: log },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return readFileSync(log, 'utf8')
    .split('--\n')
    .slice(0, 2)
    .map((text) => {
      const packages = new Set<string>();
      for (const line of text.split('\n')) {
        const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(line);
        if (match?.[1]) packages.add(match[1]);
      }
      return [...packages].sort();
    });
}

const cases = [
  { name: 'the source (tsx)', entry: join(root, 'src/index.ts'), format: 'esm' as const, viaTsx: true },
  { name: 'dist/index.js', entry: join(root, 'dist/index.js'), format: 'esm' as const, viaTsx: false },
  { name: 'dist/index.cjs', entry: join(root, 'dist/index.cjs'), format: 'cjs' as const, viaTsx: false },
];

describe.each(cases)('$name', ({ entry, format, viaTsx }) => {
  it.skipIf(!existsSync(entry))(
    'loads no transport library and no zod at import; undici comes with the first request, zod never',
    () => {
      const [atImport, afterRequest] = phases(entry, format, viaTsx);
      expect(atImport).not.toContain('undici');
      expect(atImport).not.toContain('zod');
      expect(afterRequest).toContain('undici');
      // Requests and responses are checked by plain validators (generated/validators.ts).
      expect(afterRequest).not.toContain('zod');
    },
    30_000,
  );
});
