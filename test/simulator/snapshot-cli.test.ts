import { describe, expect, it } from 'vitest';
import { Output } from '../../src/simulator/cli/log-format.js';
import { cli, request, useCliCleanup } from './cli-process.js';

// Issue 33: a restore whose clock is 2^53-1 (the schema used to take it) took the CLI down: the
// answer could not be built, and the error logger stamping the line with the simulated clock threw
// `RangeError: Invalid time value` in the error handler. Now the document is refused (400) and the
// logger never throws, whatever the clock reads.

useCliCleanup();

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

describe('the CLI and a restore at the end of time', () => {
  it('POST /_sim/restore with clock.now 2^53-1 is a 400 naming clock.now, and the process stays up', async () => {
    const run = cli(['--port', '0', '--clock', 'manual', '--no-ui', '--json']);
    const base = (await run.waitFor(/"url":"(http:\/\/127\.0\.0\.1:\d+)"/))[1] as string;
    const doc = (await (await fetch(`${base}/_sim/snapshot`, { method: 'POST' })).json()) as {
      clock: { now: number };
    };
    doc.clock.now = MAX_SAFE;
    const refused = await request(base, 'POST', '/_sim/restore', { body: doc });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe(2);
    expect((refused.body as { errors: { location: string }[] }).errors[0]?.location).toBe('clock.now');
    const state = await request(base, 'GET', '/_sim/state');
    expect(state.status).toBe(200);
    expect(run.proc.exitCode).toBeNull();
    expect(await run.stop()).toBe(0);
    expect(run.out.text).not.toMatch(/Invalid time value/);
  });

  it('prints the restore limit in --help, and refuses one out of range naming the flag', async () => {
    const run = cli(['--help']);
    const [code] = await run.exited;
    expect(code).toBe(0);
    expect(run.out.text).toMatch(/--restore-limit-mb <n>\s+largest POST \/_sim\/restore body .*default 512/);
    const refused = cli(['--restore-limit-mb', '513']);
    expect((await refused.exited)[0]).toBe(2);
    expect(refused.out.err).toMatch(
      /^match-venue-sim: --restore-limit-mb must be an integer from 1 to 512\n/,
    );
  });
});

describe('the log never throws', () => {
  const lines = (json: boolean, now: () => number) => {
    const written: string[] = [];
    const out = new Output({ json, colour: false, now, write: (line) => written.push(line) });
    return { out, written };
  };

  it('stamps a clock no Date can show with its raw epoch ms, in text and JSON', () => {
    const text = lines(false, () => MAX_SAFE);
    text.out.error('auction cycle step failed', new RangeError('boom'));
    text.out.line('info', {}, 'hello');
    expect(text.written[0]).toMatch(
      /^\[sim t=9007199254740991\] ERROR auction cycle step failed: RangeError: boom/,
    );
    expect(text.written[1]).toBe('[sim t=9007199254740991] hello');
    const json = lines(true, () => Number.NaN);
    json.out.line('info', { message: 'hi' }, 'hi');
    expect(JSON.parse(json.written[0] as string)).toEqual({ type: 'info', simTime: 't=NaN', message: 'hi' });
  });

  it('writes a line whose clock, error or fields cannot be read', () => {
    const broken = lines(true, () => {
      throw new Error('no clock');
    });
    const hostile = {
      toString() {
        throw new Error('no text');
      },
    };
    broken.out.error('failed', hostile);
    broken.out.line('info', { big: 10n }, 'x');
    expect(JSON.parse(broken.written[0] as string)).toEqual({
      type: 'error',
      simTime: 't=?',
      message: 'failed',
      error: '(an error whose text could not be read)',
    });
    expect(JSON.parse(broken.written[1] as string)).toEqual({ type: 'info', simTime: 't=?', big: '10' });
    const closed = new Output({
      json: false,
      colour: false,
      now: () => 0,
      write: () => {
        throw new Error('EPIPE');
      },
    });
    expect(() => closed.line('info', {}, 'x')).not.toThrow();
  });
});
