// Commands run as a user types them, in their own process group so that a test can always end
// them and everything they started: quickstart.test.ts and from-source.test.ts.
import { type ChildProcess, spawn } from 'node:child_process';
import { npmEnv } from './pack.js';

/** A clean user shell: none of npm's script variables, no SDK settings, no inherited loaders. */
export function userEnv(): NodeJS.ProcessEnv {
  const env = npmEnv();
  for (const key of Object.keys(env)) {
    if (/^(MATCH_VENUE_|NODE_OPTIONS$|FORCE_COLOR$)/.test(key)) delete env[key];
  }
  return env;
}

export interface Started extends ChildProcess {
  stdout: NonNullable<ChildProcess['stdout']>;
  /** What it printed so far on stdout, and on both streams (for failure messages). */
  printed: () => string;
  transcript: () => string;
}

/** Runs a shell command line in its own process group, so that it and its children can be killed. */
export function start(command: string, cwd: string): Started {
  const child = spawn(command, {
    cwd,
    env: userEnv(),
    shell: true,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let both = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    both += chunk.toString();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    both += chunk.toString();
  });
  return Object.assign(child as ChildProcess & { stdout: Started['stdout'] }, {
    printed: () => stdout,
    transcript: () => both,
  });
}

/** Whether any process of the group `pgid` is alive. */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function stop(child: ChildProcess | undefined): Promise<void> {
  const pid = child?.pid;
  if (pid === undefined || !groupAlive(pid)) return;
  process.kill(-pid, 'SIGTERM');
  for (let waited = 0; waited < 5_000 && groupAlive(pid); waited += 50) {
    await new Promise((r) => setTimeout(r, 50));
  }
  if (groupAlive(pid)) process.kill(-pid, 'SIGKILL');
}

export function exited(child: ChildProcess, timeoutMs: number): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`still running after ${timeoutMs} ms`)), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

export function baseUrlOf(sim: Started, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => done(new Error(`no base URL after ${timeoutMs} ms`)), timeoutMs);
    const check = () => {
      const url = /http:\/\/127\.0\.0\.1:\d+/.exec(sim.printed())?.[0];
      if (url) done(undefined, url);
    };
    const onExit = (code: number | null) => done(new Error(`simulator exited (${code})`));
    const done = (err?: Error, url?: string) => {
      clearTimeout(timer);
      sim.stdout.off('data', check);
      sim.off('exit', onExit);
      if (err) reject(new Error(`${err.message}:\n${sim.transcript()}`));
      else resolve(url!);
    };
    sim.stdout.on('data', check);
    sim.on('exit', onExit);
    check();
  });
}
