import { describe, expect, it } from 'vitest';
import { BASE, cli, request, useCliCleanup } from '../cli-process.js';

useCliCleanup();

describe('match-venue-sim --faults', { timeout: 60_000 }, () => {
  it('sets the presets from the start (and after a reset); an unknown one exits 2 naming it and the valid list', async () => {
    const refused = cli(['--faults', 'going-away,fill-lost']);
    expect((await refused.exited)[0]).toBe(2);
    expect(refused.out.err).toMatch(
      /^match-venue-sim: --faults: unknown preset "fill-lost"; valid: fill-event-lost, ack-after-event, going-away, ticket-reused, settlement-slow\n/,
    );
    const sim = cli(['--port', '0', '--clock', 'manual', '--faults', 'going-away, settlement-slow']);
    const [, base] = await sim.waitFor(BASE);
    const presets = { presets: ['going-away', 'settlement-slow'] };
    expect((await request(String(base), 'GET', '/_sim/faults')).body.data).toEqual(presets);
    await request(String(base), 'POST', '/_sim/faults', { body: {} });
    await request(String(base), 'POST', '/_sim/reset', { body: {} });
    expect((await request(String(base), 'GET', '/_sim/faults')).body.data).toEqual(presets);
    expect(await sim.stop()).toBe(0);
  });
});
