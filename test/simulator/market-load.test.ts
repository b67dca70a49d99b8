import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseCliArgs } from '../../src/simulator/cli/args.js';
import { MARKET_PRESETS } from '../../src/simulator/market/config.js';
import { loadMarket } from '../../src/simulator/market/load.js';

const dir = mkdtempSync(join(tmpdir(), 'market-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('--market and MATCH_VENUE_MOCK_MARKET: a preset or a file', () => {
  it('the CLI takes --market <preset|file>', () => {
    expect(parseCliArgs(['--market', 'busy']).market).toBe('busy');
    expect(parseCliArgs([]).market).toBeUndefined();
  });

  it('reads YAML and JSON files over a preset, by the one loader', async () => {
    const yaml = join(dir, 'm.yaml');
    writeFileSync(yaml, 'preset: busy\nnoise:\n  count: 10\n');
    const json = join(dir, 'm.json');
    writeFileSync(json, JSON.stringify({ noise: { count: 4 } }));
    const y = await loadMarket(yaml);
    expect(y.noise).toEqual({ ...MARKET_PRESETS.busy.noise, count: 10 });
    expect((await loadMarket(json)).noise.count).toBe(4);
    expect((await loadMarket('calm')).noise.count).toBe(MARKET_PRESETS.calm.noise.count);
  });

  it('refuses a file with a mistake, naming the file, the path and the rule', async () => {
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, 'noise:\n  activity: 1.5\n');
    await expect(loadMarket(bad)).rejects.toThrow(`${bad}.noise.activity must be at most 1`);
    await expect(loadMarket(join(dir, 'missing.yaml'))).rejects.toThrow(
      /neither a preset .* nor a readable file/,
    );
    writeFileSync(join(dir, 'broken.yaml'), 'noise: [1, 2\n');
    await expect(loadMarket(join(dir, 'broken.yaml'))).rejects.toThrow(/broken\.yaml is not valid YAML/);
    // A .json file is JSON only: a trailing comma (which YAML would take) is a JSON error, placed.
    const comma = join(dir, 'comma.json');
    writeFileSync(comma, '{"noise": {"count": 4},}');
    const message = new RegExp(`^${comma} is not valid JSON: .*position 23.*\\(line 1,? column 24\\)$`);
    await expect(loadMarket(comma)).rejects.toThrow(message);
  });
});
