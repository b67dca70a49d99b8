// What `import 'match-venue'` loads, and what the first request adds: the packages a child process
// has loaded from node_modules at each point (ES modules through a module hook, CommonJS through
// require.cache), and the SDK's own code that loads on first use (the account mirror, the waits,
// the telemetry of an observed call, the recording: src/core/lazy-chunk.ts). The source is checked through tsx;
// the built package (dist/, ESM and CommonJS) when it has been built (`npm test` builds first).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const work = mkdtempSync(join(tmpdir(), 'mv-lazy-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

// Every ES module Node loads passes this hook; it appends each file's URL to a log.
const hooks = join(work, 'hooks.mjs');
writeFileSync(
  hooks,
  `import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(\`
import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  if (url.startsWith('file:')) appendFileSync(process.env.MV_LOADED_LOG, url + '\\\\n');
  return next(url, context);
}\`));
`,
);

/** What one phase had loaded: packages from node_modules, and the SDK's lazy features. */
interface Loaded {
  packages: string[];
  /**
   * Of `account-mirror`, `order-outcome` (the waits), `observed-call` (telemetry), `otel-bridge`
   * (OpenTelemetry, with a provider registered only: never here), `record-transport` and
   * `record-socket` (the recording), those loaded.
   */
  features: string[];
}

// The modules each lazy feature starts from (src/state/load.ts, src/core/telemetry/load.ts and
// otel.ts, src/core/record-load.ts, src/stream/load.ts): the source file, or the dist/ chunk named
// after it (`account-mirror-<hash>.js`).
const FEATURE =
  /\/(?:src\/(?:state|core\/telemetry|core|stream)|dist)\/(account-mirror|order-outcome|observed-call|otel-bridge|record-transport|record-socket)[-.]/;

/** What was loaded at the end of each phase of `steps` (phases end at `mark()`; the first at import). */
function phases(entry: string, format: 'esm' | 'cjs', viaTsx: boolean, steps: string): Loaded[] {
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
  // Nothing listens on port 9: requests fail after the transport is loaded.
  const venue = new MatchVenue({
    apiKey: 'TEST_API_KEY:lazy:load', baseUrl: 'http://127.0.0.1:9', wsUrl: 'ws://127.0.0.1:9', maxRetries: 0,
  });
  const expectFailure = async (promise, name) => {
    const outcome = await promise.then(() => 'answered', (e) => e.name);
    if (outcome !== name) throw new Error('expected ' + name + ', got ' + outcome);
  };
  ${steps}
})().catch((e) => { console.error(e); process.exit(1); });
`;
  const args = [...(viaTsx ? ['--import', 'tsx'] : []), '--import', pathToFileURL(hooks).href, '-e', script];
  execFileSync(process.execPath, args, {
    cwd: root,
    env: { ...process.env, MV_LOADED_LOG: log },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const texts = readFileSync(log, 'utf8').split('--\n');
  // The hook logs each ES module once, as it loads; require.cache lists all so far: each phase
  // counts what every phase up to it logged.
  const packages = new Set<string>();
  const features = new Set<string>();
  return texts.slice(0, texts.length - 1).map((text) => {
    for (const line of text.split('\n')) {
      const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(line);
      if (match?.[1]) packages.add(match[1]);
      const feature = FEATURE.exec(line.startsWith('file:') ? fileURLToPath(line) : line);
      if (feature?.[1]) features.add(feature[1]);
    }
    return { packages: [...packages].sort(), features: [...features].sort() };
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
      const steps = `
  await expectFailure(venue.account.retrieve(), 'APIConnectionError');
  mark();`;
      const [atImport, afterRequest] = phases(entry, format, viaTsx, steps).map((p) => p!.packages);
      expect(atImport).not.toContain('undici');
      expect(atImport).not.toContain('zod');
      expect(afterRequest).toContain('undici');
      // Requests and responses are checked by plain validators (generated/validators.ts).
      expect(afterRequest).not.toContain('zod');
    },
    30_000,
  );

  it.skipIf(!existsSync(entry))(
    'loads the telemetry, the waits and the mirror each on its first use, none at import',
    () => {
      // A hook registered before the first observed call sees that call's first attempt: the
      // telemetry's load is awaited before anything is sent.
      const steps = `
  await expectFailure(venue.account.retrieve(), 'APIConnectionError');
  mark();
  const seen = [];
  venue.on('request', (e) => seen.push(e.attempt));
  await expectFailure(venue.account.retrieve(), 'APIConnectionError');
  if (seen.join() !== '1') throw new Error('request events: ' + seen.join());
  mark();
  await expectFailure(
    venue.orders.waitForOutcome('00000000-0000-4000-8000-000000000000', { timeout: 1 }),
    'WaitTimeoutError',
  );
  mark();
  const mirror = venue.account.mirror();
  await mirror.close();
  await expectFailure(mirror.ready, 'APIUserAbortError');
  mark();`;
      const loaded = phases(entry, format, viaTsx, steps).map((p) => p.features);
      expect(loaded).toEqual([
        [],
        // An unobserved call loads nothing of the telemetry.
        [],
        ['observed-call'],
        ['observed-call', 'order-outcome'],
        ['account-mirror', 'observed-call', 'order-outcome'],
      ]);
    },
    30_000,
  );

  it.skipIf(!existsSync(entry))(
    "loads the recording on a recording client's first call: not at import, nor for a client that does not record, nor at construction",
    () => {
      const file = join(work, `rec-${Math.random().toString(36).slice(2)}.ndjson`);
      // The recording client's file is checked (and started) at construction; its first attempt
      // waits for the recording transport and is written before the call settles.
      const steps = `
  await expectFailure(venue.account.retrieve(), 'APIConnectionError');
  mark();
  const recording = new MatchVenue({
    apiKey: 'TEST_API_KEY:lazy:load', baseUrl: 'http://127.0.0.1:9', maxRetries: 0, record: ${JSON.stringify(file)},
  });
  mark();
  await expectFailure(recording.account.retrieve(), 'APIConnectionError');
  mark();`;
      const loaded = phases(entry, format, viaTsx, steps).map((p) => p.features);
      expect(loaded).toEqual([[], [], [], ['record-transport']]);
      const lines = readFileSync(file, 'utf8')
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(lines.map((line) => line.kind)).toEqual(['cassette', 'http']);
      expect(lines[1]).toMatchObject({ keyId: 'lazy', attempt: 1, response: null });
      expect(lines[1].error).toMatch(/^connection: /);
    },
    30_000,
  );
});
