/**
 * The restore family's simulator, in a child process of its own (bench/fuzz-restore.ts forks it):
 * a snapshot the simulator accepts can make its next read run out of memory or never return, and
 * that must end this process, not the driver. It builds the busy market, takes the snapshot,
 * listens, and answers the driver's in-process questions over IPC (is the state the baseline's,
 * what do the invariants say, put the original back, restore this document).
 */
import { loadSimulator } from './fuzz-family.js';
import { invariantsOf } from './invariants-of.js';

export interface HostStart {
  modulePath?: string;
  clears: number;
}

export type HostRequest =
  | { id: number; op: 'same' }
  | { id: number; op: 'invariants' }
  | { id: number; op: 'putBack' }
  | { id: number; op: 'restore'; text: string };

/** An answer to request `id`; id -1 is a line the simulator logged as an error. */
export interface HostReply {
  id: number;
  ok: boolean;
  value?: unknown;
  error?: string;
}

async function start(o: HostStart): Promise<void> {
  const mod = await loadSimulator(o.modulePath);
  const sim = mod.createSimulator({
    market: 'busy',
    clock: 'manual',
    seed: 11,
    startTime: '2026-01-05T09:00:00Z',
    logger: {
      info: () => undefined,
      // Sent as it happens: a process that dies next must not take its log with it.
      error: (message, err) =>
        process.send?.({ id: -1, ok: true, value: `${message}: ${String(err).slice(0, 200)}` }),
    },
    fetch: async () => new Response(null, { status: 200 }),
  });
  for (let i = 0; i < o.clears; i++) sim.clearAuction();
  const original = JSON.stringify(sim.snapshot());
  const putBack = () => sim.restore(JSON.parse(original));
  putBack();
  const baseline = JSON.stringify(sim.snapshot());
  const running = await sim.listen({ host: '127.0.0.1', port: 0 });
  const answer = (req: HostRequest): unknown => {
    switch (req.op) {
      case 'same':
        return JSON.stringify(sim.snapshot()) === baseline;
      case 'invariants':
        return invariantsOf(sim, mod);
      case 'putBack':
        return putBack();
      case 'restore':
        return sim.restore(JSON.parse(req.text));
    }
  };
  process.on('message', (req: HostRequest | 'stop') => {
    if (req === 'stop') {
      void running
        .close()
        .then(() => sim.close())
        .finally(() => process.disconnect());
      return;
    }
    let reply: HostReply;
    try {
      reply = { id: req.id, ok: true, value: answer(req) };
    } catch (err) {
      reply = {
        id: req.id,
        ok: false,
        error: err instanceof Error ? `${err.name}: ${err.message}` : String(err),
      };
    }
    process.send?.(reply);
  });
  process.send?.({ id: 0, ok: true, value: { url: running.url, original } });
}

// The driver gone (a failed test, a killed run) leaves no simulator behind: its listening server
// would otherwise keep this process alive.
process.once('disconnect', () => process.exit(0));

process.once('message', (o: HostStart) => {
  start(o).catch((err) => {
    process.send?.({ id: 0, ok: false, error: String(err) });
    process.disconnect();
  });
});
