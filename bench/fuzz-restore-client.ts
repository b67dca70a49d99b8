/**
 * The driver's side of bench/fuzz-restore-host.ts: forks the host (tsx, a bounded heap), asks it
 * questions over IPC, and notices when it died (a snapshot it accepted ran it out of memory) or
 * stopped answering (a read that never returns), so the family can count it and start another.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { HostReply, HostRequest, HostStart } from './fuzz-restore-host.js';

type Question = HostRequest extends infer Q ? (Q extends { id: number } ? Omit<Q, 'id'> : never) : never;

/** Heap of the simulator's process: an accepted snapshot that makes it grow without end fails fast. */
const HOST_HEAP_MB = 1024;

export class RestoreHost {
  private readonly waiting = new Map<number, (reply: HostReply | 'gone') => void>();
  private next = 1;
  /** What the simulator logged as errors. */
  readonly logged: string[] = [];
  /** Why the process ended, once it has ('' while it runs). */
  ended = '';
  private readonly exited: Promise<void>;

  private constructor(private readonly child: ChildProcess) {
    this.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => {
        this.ended = `exit ${signal ?? code}`;
        for (const done of this.waiting.values()) done('gone');
        this.waiting.clear();
        resolve();
      }),
    );
    child.on('message', (reply: HostReply) => {
      if (reply.id === -1) this.logged.push(String(reply.value));
      this.waiting.get(reply.id)?.(reply);
      this.waiting.delete(reply.id);
    });
  }

  /** A host with the busy market built and listening: its address and the snapshot as taken. */
  static async start(
    o: HostStart,
    timeoutMs: number,
  ): Promise<{ host: RestoreHost; url: string; original: string }> {
    const child = fork(fileURLToPath(new URL('./fuzz-restore-host.ts', import.meta.url)), [], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      execArgv: ['--import', 'tsx', `--max-old-space-size=${HOST_HEAP_MB}`],
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    const host = new RestoreHost(child);
    const ready = host.wait(0, Math.max(timeoutMs, 60_000));
    child.send(o);
    const reply = await ready;
    if (typeof reply !== 'object' || !reply.ok) {
      host.kill();
      throw new Error(
        `the restore family's simulator did not start: ${typeof reply === 'object' ? reply.error : reply}`,
      );
    }
    const { url, original } = reply.value as { url: string; original: string };
    return { host, url, original };
  }

  private wait(id: number, timeoutMs: number): Promise<HostReply | 'gone' | 'timeout'> {
    if (this.ended) return Promise.resolve('gone');
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        resolve('timeout');
      }, timeoutMs);
      this.waiting.set(id, (reply) => {
        clearTimeout(timer);
        resolve(reply);
      });
    });
  }

  /** The host's answer, 'gone' if it died, 'timeout' if it did not answer in time. */
  ask(question: Question, timeoutMs: number): Promise<HostReply | 'gone' | 'timeout'> {
    const id = this.next++;
    const reply = this.wait(id, timeoutMs);
    if (!this.ended) this.child.send({ ...question, id });
    return reply;
  }

  /** Closes the simulator and lets the process end; killed if it does not within `timeoutMs`. */
  async stop(timeoutMs: number): Promise<void> {
    if (this.ended) return;
    this.child.send('stop');
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.exited, new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
    clearTimeout(timer);
    if (!this.ended) this.kill();
    await this.exited;
  }

  /** Ends the host at once (it hangs on a document it accepted). */
  kill(): void {
    if (!this.ended) this.child.kill('SIGKILL');
  }
}
