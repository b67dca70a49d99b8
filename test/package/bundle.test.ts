// A bot that bundles the main entry (esbuild, as bench/size.ts does): what its bundle carries, and
// that the bundle works where it lands, with no node_modules beside it (the transport falls back
// to the global fetch).
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build, type Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
// Outside the repository: nothing up the tree has a node_modules the bundle could reach into.
const work = mkdtempSync(join(tmpdir(), 'mv-bundle-'));
const bundleFile = join(work, 'bot.cjs');

let metafile: Metafile;
let server: Server;
let baseUrl: string;
const seen: { method: string; url: string; authorization?: string; fetchMode?: string | string[] }[] = [];

beforeAll(async () => {
  const result = await build({
    stdin: {
      contents: `import { MatchVenue } from ${JSON.stringify(join(root, 'src/index.ts'))};
(async () => {
  const venue = new MatchVenue({ apiKey: 'TEST_API_KEY:bundled:bot', baseUrl: process.argv[2], maxRetries: 0 });
  console.log(JSON.stringify(await venue.configuration.retrieve()));
})();`,
      resolveDir: root,
      loader: 'ts',
    },
    bundle: true,
    minify: true,
    platform: 'node',
    // CommonJS, as most bots bundled for Node are: ws, a CommonJS package, requires Node built-ins.
    format: 'cjs',
    target: 'es2022',
    outfile: bundleFile,
    metafile: true,
    logLevel: 'silent',
  });
  metafile = result.metafile;
  server = createServer((req, res) => {
    // fetch (of any runtime) sends sec-fetch-mode; undici.request does not.
    seen.push({
      method: req.method ?? '',
      url: req.url ?? '',
      authorization: req.headers.authorization,
      fetchMode: req.headers['sec-fetch-mode'],
    });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ data: { payments: { masterWalletId: 'wallet-1' } } }));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  await new Promise((done) => server?.close(done));
  rmSync(work, { recursive: true, force: true });
});

/** The packages (node_modules/<name>) and SDK source folders the bundle took code from. */
function inputs(): string[] {
  return Object.values(metafile.outputs).flatMap((output) =>
    Object.entries(output.inputs)
      .filter(([, info]) => info.bytesInOutput > 0)
      .map(([input]) => input),
  );
}

describe('a bundle of the main entry', () => {
  it('carries no simulator, no testing layer, no jose, no undici and no zod', () => {
    const files = inputs();
    expect(files.filter((f) => /src\/(simulator|testing)\//.test(f))).toEqual([]);
    expect(files.filter((f) => /node_modules\/(jose|undici|msw|zod)\//.test(f))).toEqual([]);
    // The client checks with the generated checks (the endpoint table over src/validation/).
    expect(
      files.filter((f) => /src\/(generated\/(endpoints|validators)|validation\/check)\.ts$/.test(f)).sort(),
    ).toEqual(['src/generated/endpoints.ts', 'src/generated/validators.ts', 'src/validation/check.ts']);
  });

  it('sends through the global fetch where undici cannot be loaded', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [bundleFile, baseUrl], { cwd: work });
    expect(JSON.parse(stdout)).toEqual({ payments: { masterWalletId: 'wallet-1' } });
    expect(seen).toEqual([
      {
        method: 'GET',
        url: '/v1/configuration',
        authorization: 'Bearer TEST_API_KEY:bundled:bot',
        fetchMode: 'cors',
      },
    ]);
  }, 30_000);
});
