import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runProbeCli } from '../../../src/simulator/cli/probe.js';
import { cli, useCliCleanup } from '../cli-process.js';
import { edited, isHttp, type Line, only } from './edit.js';
import { recordSession } from './session.js';

// `match-venue-sim probe`: exit 0 alike, 1 differences, 2 a refused command line or an unusable
// cassette. The exit codes and --help through the real process; the rest through its main.

useCliCleanup();
let dir: string;
let clean: string;
let changed: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'probe-cli-'));
  const text = await recordSession();
  clean = join(dir, 'clean.ndjson');
  changed = join(dir, 'changed.ndjson');
  writeFileSync(clean, text);
  writeFileSync(
    changed,
    edited(text, (lines) => {
      (lines[only(lines, isHttp('GET', '/v1/match/account'), 'account')] as Line).response.status = 201;
    }),
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** runProbeCli in-process: its exit code and what it wrote. */
async function run(args: string[]) {
  const io = { out: '', err: '' };
  const code = await runProbeCli(args, {
    out: (t) => {
      io.out += t;
    },
    err: (t) => {
      io.err += t;
    },
  });
  return { code, ...io };
}

describe('match-venue-sim probe (process)', { timeout: 60_000 }, () => {
  it('exits 0 when the simulator answers as recorded, with the summary line', async () => {
    const p = cli(['probe', clean]);
    const [code] = await p.exited;
    expect(code).toBe(0);
    expect(p.out.text).toContain('key burner -> burner (it names the entity)');
    expect(p.out.text.trimEnd().split('\n').at(-1)).toBe('9 exchanges, 11 events compared: 0 differences');
  });

  it('exits 1 on a difference; --json prints the report as data', async () => {
    const p = cli(['probe', changed, '--json']);
    const [code] = await p.exited;
    expect(code).toBe(1);
    const report = JSON.parse(p.out.text) as { alike: boolean; differences: object[] };
    expect(report.alike).toBe(false);
    expect(report.differences).toEqual([
      {
        line: 2,
        where: 'GET /v1/match/account',
        kind: 'status',
        path: 'status',
        recorded: '201',
        simulated: '200',
      },
    ]);
  });

  it('exits 2 on a cassette it cannot read, naming the file and the line', async () => {
    const bad = join(dir, 'cut.ndjson');
    // A recorder killed mid-write: the last line cut short.
    const header =
      '{"kind":"cassette","format":"match-venue-cassette","version":1,"createdAt":"2026-01-01T00:00:00.000Z","sdk":"x"}';
    writeFileSync(bad, `${header}\n{"kind":"ht`);
    const p = cli(['probe', bad]);
    const [code] = await p.exited;
    expect(code).toBe(2);
    expect(p.out.err).toContain(`${bad}, line 2: is not complete JSON`);
  });

  it('--help names the subcommand; probe --help lists its flags', async () => {
    const top = cli(['--help']);
    expect((await top.exited)[0]).toBe(0);
    expect(top.out.text).toMatch(/match-venue-sim probe <cassette> \[options\]/);
    const sub = cli(['probe', '--help']);
    expect((await sub.exited)[0]).toBe(0);
    for (const flag of ['--json', '--ignore <path>', '--scenario <file>', '--as <keyId>=<entity>'])
      expect(sub.out.text).toContain(flag);
  });
});

describe('match-venue-sim probe (main)', () => {
  it('prints the table: line, where, kind, path, recorded, simulated', async () => {
    const r = await run([changed]);
    expect(r.code).toBe(1);
    const lines = r.out.split('\n');
    const header = lines.findIndex((l) => l.startsWith('line'));
    expect(lines[header]).toMatch(/^line\s+where\s+kind\s+path\s+recorded\s+simulated$/);
    expect(lines[header + 1]).toMatch(/^2\s+GET \/v1\/match\/account\s+status\s+status\s+201\s+200$/);
    expect(lines.at(-2)).toBe('9 exchanges, 11 events compared: 1 difference');
  });

  it('--ignore silences a path (and counts it)', async () => {
    const r = await run([changed, '--ignore', 'status']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('9 exchanges, 11 events compared: 0 differences (1 more ignored)');
  });

  it('--as maps a key id to an entity; one naming none is refused', async () => {
    const r = await run([clean, '--as', 'burner=minter', '--as', 'minter=burner']);
    expect(r.out).toContain('key burner -> minter (--as)');
    expect(r.code).toBe(1);
    expect(await run([clean, '--as', 'burner=nobody'])).toMatchObject({
      code: 2,
      err: expect.stringContaining('as: burner=nobody names no entity of the probe'),
    });
    expect((await run([clean, '--as', 'burner'])).code).toBe(2);
  });

  it('refuses a missing cassette, two cassettes, an unknown flag and a missing file (exit 2)', async () => {
    expect(await run([])).toMatchObject({
      code: 2,
      err: expect.stringContaining('name the cassette to probe'),
    });
    expect((await run([clean, changed])).code).toBe(2);
    expect(await run([clean, '--jsn'])).toMatchObject({ code: 2, err: expect.stringContaining("'--jsn'") });
    const missing = join(dir, 'none.ndjson');
    expect(await run([missing])).toMatchObject({
      code: 2,
      err: expect.stringContaining(`${missing}: cannot be read`),
    });
  });
});
