/**
 * The fuzz driver's restore family: POST /_sim/restore with one mutation per case of a real
 * busy-market snapshot (a simulator of its own, manual clock, fixed seed, ~12 auctions cleared,
 * in a child process: a document it accepts may run it out of memory, which is counted as a crash
 * of that case, and a fresh simulator takes the next one).
 * Cases run one at a time, so the before/after comparison races with nothing: after a refusal
 * GET /_sim/state and the full snapshot must be byte-identical to the baseline; after an accepted
 * restore a few ordinary requests must still answer without a 5xx, then the original is put back.
 */
import {
  Asker,
  type FamilyReport,
  isJsonError,
  JSON_HEADERS,
  jsonBody,
  newFamilyReport,
  note,
  watchingCrashes,
} from './fuzz-family.js';
import { type Doc, restoreCase } from './fuzz-restore-cases.js';
import { RestoreHost } from './fuzz-restore-client.js';
import type { RawOutcome } from './raw-http.js';

export interface RestoreFamilyOptions {
  cases: number;
  seed: number;
  timeoutMs: number;
  deadline: number;
  /** Auctions cleared before the snapshot is taken. Default 12 (a ~3.3 MB document). */
  clears?: number;
  /** Entry module of the simulator (as `--sim`); default this tree's. */
  modulePath?: string;
}

function later(r: FamilyReport, at: string, what: string, got: RawOutcome): void {
  if (typeof got === 'object' && got.status < 500) return;
  note(r, 'laterFailures', `${at} -> ${what}: ${typeof got === 'object' ? String(got.status) : got}`);
}

/** The host died or stopped answering: counted by the case that did it, then a new one starts. */
class HostLost extends Error {}

/** The simulator (in a process of its own, bench/fuzz-restore-host.ts), its address and its baseline. */
interface Target {
  host: RestoreHost;
  asker: Asker;
  baselineState: string;
}

export async function runRestoreFamily(o: RestoreFamilyOptions): Promise<FamilyReport> {
  const r = newFamilyReport();
  const started = Date.now();
  const logged: string[] = [];
  let original = '';
  const stateText = async (asker: Asker) => {
    const got = await asker.ask('GET', '/_sim/state');
    return typeof got === 'object' ? got.body.toString('utf8') : `(${got})`;
  };
  const launch = async (): Promise<Target> => {
    const started = await RestoreHost.start(
      { modulePath: o.modulePath, clears: o.clears ?? 12 },
      o.timeoutMs,
    );
    original = started.original;
    const asker = new Asker(Number(new URL(started.url).port), o.timeoutMs);
    return { host: started.host, asker, baselineState: await stateText(asker) };
  };
  const retire = async (t: Target, kill: boolean) => {
    t.asker.close();
    if (kill) t.host.kill();
    await t.host.stop(o.timeoutMs);
    logged.push(...t.host.logged);
  };
  let t = await launch();
  const doc = JSON.parse(original) as Doc;
  /** An in-process question to the host; its death or silence ends the case. */
  const hostSays = async (question: Parameters<RestoreHost['ask']>[0]) => {
    const got = await t.host.ask(question, o.timeoutMs);
    if (typeof got !== 'object')
      throw new HostLost(
        got === 'gone'
          ? `the simulator process ended (${t.host.ended})`
          : `the simulator process did not answer ${question.op} in ${o.timeoutMs} ms`,
      );
    return got;
  };
  const oneCase = async (index: number, text: string, at: string) => {
    const { asker } = t;
    const got = await asker.ask('POST', '/_sim/restore', JSON_HEADERS, text);
    if (typeof got !== 'object') {
      if (t.host.ended) throw new HostLost(`the simulator process ended (${t.host.ended})`);
      // A simulator that never answers is replaced: one stall per case, not one per question.
      if (got === 'timeout') throw new HostLost('no answer to POST /_sim/restore');
      note(r, 'closedUnanswered', `${at} -> ${got}`);
    } else {
      r.byStatus[got.status] = (r.byStatus[got.status] ?? 0) + 1;
      if (got.status >= 500) note(r, 'serverErrors', `${at} -> ${got.status}`);
      else if (got.status === 413) r.tooLarge++;
      else if (got.status >= 400) r.refused++;
      else r.accepted++;
      if (got.status >= 400 && !isJsonError(got))
        note(r, 'nonJsonErrors', `${at} -> ${got.status} ${got.body.subarray(0, 80).toString('utf8')}`);
      if (got.status === 400) {
        const body = jsonBody(got) ?? {};
        const errors = Array.isArray(body.errors) ? (body.errors as { location?: unknown }[]) : [];
        const where =
          typeof body.field === 'string' || errors.some((e) => typeof e?.location === 'string' && e.location);
        if (body.code !== 2 || !where)
          note(r, 'badRefusals', `${at} -> ${got.body.subarray(0, 200).toString('utf8')}`);
      }
    }
    if (index === 0 && (typeof got !== 'object' || got.status !== 200))
      note(r, 'originalRefused', `${at} -> ${typeof got === 'object' ? got.status : got}`);
    if (typeof got !== 'object' || got.status !== 200) {
      const state = await stateText(asker);
      const same = (await hostSays({ op: 'same' })).value === true;
      if (state !== t.baselineState || !same) {
        const what = state !== t.baselineState ? 'GET /_sim/state differs' : 'the snapshot differs';
        note(
          r,
          'stateChangedAfterRefusal',
          `${at} -> ${typeof got === 'object' ? got.status : got}, ${what}`,
        );
        await hostSays({ op: 'putBack' });
      }
      return;
    }
    // Accepted: the simulator must go on answering as a simulator, not fail on what it took in.
    const broken = await hostSays({ op: 'invariants' });
    const violations = broken.ok ? (broken.value as string[]) : [`checkInvariants threw ${broken.error}`];
    if (violations.length) note(r, 'acceptedBreakingInvariants', `${at} -> ${violations[0]}`);
    later(r, at, 'GET /_sim/state', await asker.ask('GET', '/_sim/state'));
    later(r, at, 'GET /_sim/auctions/current', await asker.ask('GET', '/_sim/auctions/current'));
    later(
      r,
      at,
      'POST /_sim/auctions/clear',
      await asker.ask('POST', '/_sim/auctions/clear', JSON_HEADERS, '{}'),
    );
    const auth = { authorization: 'Bearer TEST_API_KEY:burner:sim' };
    later(r, at, 'GET /v1/match/account', await asker.ask('GET', '/v1/match/account', auth));
    later(r, at, 'GET /_sim/orders', await asker.ask('GET', '/_sim/orders?limit=50'));
    const own = await asker.ask('POST', '/_sim/snapshot');
    later(r, at, 'POST /_sim/snapshot', own);
    if (t.host.ended) throw new HostLost(`the simulator process ended (${t.host.ended})`);
    // Every snapshot the simulator makes restores: the one of what it accepted included.
    if (typeof own === 'object' && own.status === 200) {
      const again = await hostSays({ op: 'restore', text: own.body.toString('utf8') });
      if (!again.ok)
        note(r, 'laterFailures', `${at} -> its own snapshot (POST /_sim/snapshot) refused: ${again.error}`);
    }
    const back = await hostSays({ op: 'putBack' });
    if (!back.ok) note(r, 'crashes', `${at} -> the original snapshot no longer restores: ${back.error}`);
    if ((await stateText(asker)) !== t.baselineState)
      note(r, 'crashes', `${at} -> the original snapshot restored, but GET /_sim/state is not as before`);
  };
  await watchingCrashes(r, async () => {
    for (let index = 0; index < o.cases; index++) {
      if (Date.now() > o.deadline) {
        r.truncated = true;
        break;
      }
      const [label, text] = restoreCase(doc, original, o.seed, index);
      const at = `${index} ${label} (${text.length} bytes)`;
      r.sent++;
      try {
        await oneCase(index, text, at);
      } catch (err) {
        if (!(err instanceof HostLost)) throw err;
        // Out of memory, or a read that never returns: a crash of the simulator, then a fresh one.
        note(r, t.host.ended ? 'crashes' : 'stalled', `${at} -> ${err.message}`);
        await retire(t, true);
        t = await launch();
      }
    }
  });
  // The server must still be alive and answering after all of it.
  const alive = await t.asker.ask('GET', '/_sim/state');
  if (typeof alive !== 'object' || alive.status !== 200)
    note(r, 'crashes', `server not answering at the end: ${String(alive)}`);
  await retire(t, false);
  r.loggedErrors = logged.length;
  if (logged.length) r.examples.loggedErrors = logged.slice(0, 5);
  r.elapsedMs = Date.now() - started;
  return r;
}
