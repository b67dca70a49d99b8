/**
 * Issue 24 through the CLI process: --host 0.0.0.0 with a generated token (printed once) or one
 * from the environment (never printed), --allowed-hosts and --cors, and refused values (exit 2).
 * Connections go to 127.0.0.1 only: the token rule follows the bind address, not the Host.
 */
import { describe, expect, it } from 'vitest';
import { RawConnection, type RawResponse, rawRequest } from '../../bench/raw-http.js';
import { scaled } from '../helpers/time-limits.js';
import { cli as startCli, useCliCleanup } from './cli-process.js';

const TOKEN_ENV = 'MATCH_VENUE_SIM_CONTROL_TOKEN';
useCliCleanup();

/** The CLI on the manual clock, with no control token from this process's environment unless given. */
const cli = (args: string[], env: Record<string, string> = {}) =>
  startCli(['--clock', 'manual', ...args], { [TOKEN_ENV]: undefined, ...env });

async function send(port: number, path: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  const conn = await RawConnection.open(port);
  try {
    conn.write(rawRequest('GET', path, { host: `127.0.0.1:${port}`, ...headers }));
    const got = await conn.next(scaled(10_000));
    if (typeof got === 'string') throw new Error(`GET ${path}: ${got}`);
    return got;
  } finally {
    conn.destroy();
  }
}

const portOf = async (sim: ReturnType<typeof cli>) =>
  Number((await sim.waitFor(/base URL:\s+http:\/\/[^\s]+:(\d+)/))[1]);

// Each test starts up to three CLIs one after another, each node with tsx compiling the CLI: several
// seconds apiece on a loaded machine, past vitest's default limit of 20 s. The waits inside are on
// the CLIs' output and answers; the limits only bound them, and grow with the load.
describe('match-venue-sim access flags', { timeout: scaled(60_000) }, () => {
  it('--host 0.0.0.0 prints a generated control token once; /_sim/ answers 401 JSON without it', async () => {
    const sim = cli(['--host', '0.0.0.0', '--port', '0']);
    const port = await portOf(sim);
    const [, token = ''] = await sim.waitFor(/needs header x-sim-control-token: (\S+)/);
    expect(token).toMatch(/^[\w-]{32}$/);
    const refused = await send(port, '/_sim/state');
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.body.toString())).toMatchObject({ code: -1 });
    expect((await send(port, '/_sim/state', { 'x-sim-control-token': token })).status).toBe(200);
    await sim.waitFor(/GET \/_sim\/state 200/);
    sim.proc.kill('SIGINT');
    expect((await sim.exited)[0]).toBe(0);
    // Once at start, never in the request log or at shutdown.
    expect(sim.out.text.split(token).length - 1).toBe(1);
    expect(sim.out.err).not.toContain(token);
  });

  it('--json states the generated token in the access line; the environment token is never printed', async () => {
    const json = cli(['--host', '0.0.0.0', '--port', '0', '--json']);
    const [line = ''] = await json.waitFor(/\{"type":"access".*\}/);
    expect(JSON.parse(line)).toMatchObject({ header: 'x-sim-control-token', generated: true });
    const token = 'env-given-token-0123456789';
    const env = cli(['--host', '0.0.0.0', '--port', '0'], { [TOKEN_ENV]: token });
    const port = await portOf(env);
    await env.waitFor(/with the token given at start/);
    expect((await send(port, '/_sim/state')).status).toBe(401);
    expect((await send(port, '/_sim/state', { 'x-sim-control-token': token })).status).toBe(200);
    // --control-token wins over the environment.
    const flag = cli(['--port', '0', '--control-token', 'flag-given-token-0123456789'], {
      [TOKEN_ENV]: token,
    });
    const flagPort = await portOf(flag);
    const tokenOf = (t: string) => ({ 'x-sim-control-token': t });
    expect((await send(flagPort, '/_sim/state', tokenOf(token))).status).toBe(401);
    expect((await send(flagPort, '/_sim/state', tokenOf('flag-given-token-0123456789'))).status).toBe(200);
    for (const s of [env, flag]) {
      s.proc.kill('SIGINT');
      await s.exited;
      expect(s.out.text + s.out.err).not.toContain(token);
    }
    expect(flag.out.text).not.toContain('flag-given-token');
  });

  it('--allowed-hosts adds Host names and --cors one origin; loopback stays open without a token', async () => {
    const app = 'http://localhost:5173';
    const sim = cli(['--port', '0', '--allowed-hosts', 'sim.internal,10.1.2.3', '--cors', app]);
    const port = await portOf(sim);
    expect(sim.out.text).not.toContain('x-sim-control-token');
    expect((await send(port, '/_sim/state', { host: 'sim.internal' })).status).toBe(200);
    expect((await send(port, '/_sim/state', { host: '10.1.2.3:80' })).status).toBe(200);
    const rebound = await send(port, '/_sim/state', { host: `evil.example:${port}` });
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.body.toString()).message).toContain('--allowed-hosts');
    const cors = await send(port, '/_sim/state', { origin: app });
    expect([cors.status, cors.headers['access-control-allow-origin']]).toEqual([200, app]);
    expect((await send(port, '/_sim/state', { origin: 'https://evil.example' })).status).toBe(403);
  });

  it.each([
    [['--cors', '*'], {}, /^match-venue-sim: --cors takes one origin/],
    [['--cors', 'https://app.example/x'], {}, /^match-venue-sim: --cors takes one origin/],
    [['--allowed-hosts', 'sim.internal,http://x'], {}, /^match-venue-sim: --allowed-hosts takes host names/],
    [['--allowed-hosts', 'sim.internal:4010'], {}, /^match-venue-sim: --allowed-hosts takes host names/],
    [['--control-token', 'short'], {}, /^match-venue-sim: --control-token must be 16 to 256/],
    [[], { [TOKEN_ENV]: 'not secret enough' }, /^match-venue-sim: MATCH_VENUE_SIM_CONTROL_TOKEN must be/],
  ])('refuses %j %j with exit 2 naming the flag', async (args, env, message) => {
    const sim = cli(args, env);
    expect((await sim.exited)[0]).toBe(2);
    expect(sim.out.err).toMatch(message);
    expect(sim.out.err).not.toContain('not secret enough');
  });
});
