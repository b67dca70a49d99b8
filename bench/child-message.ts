/** The benches that run a simulator in a child process (advance.ts, advance-busy.ts) wait on its messages. */
import type { ChildProcess } from 'node:child_process';

/** The first message of `child` that `pick` takes; rejects if the child exits first. */
export function message<T>(child: ChildProcess, pick: (m: unknown) => T | undefined): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: unknown) => {
      const v = pick(m);
      if (v === undefined) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(v);
    };
    const onExit = (code: number | null) => reject(new Error(`simulator child exited with ${code}`));
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}
