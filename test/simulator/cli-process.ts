import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterEach } from 'vitest';
import { scaled } from '../helpers/time-limits.js';

// Shared by the tests that run the CLI as a process (cli-*.test.ts, scenario/cli.test.ts): spawning
// it (node with tsx as a loader), waiting for its output, and ending whatever a failed test left running.

const started = new Set<ChildProcess>();
/** Ends a CLI a test left running (it failed midway): SIGTERM, its own shutdown, else SIGKILL after 5 s. */
async function end(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = once(proc, 'exit');
  proc.kill('SIGTERM');
  const timer = setTimeout(() => proc.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

/** Ends, after each test of the calling file, every CLI process it started or handed to `track`. */
export function useCliCleanup(): void {
  afterEach(async () => {
    await Promise.all([...started].map(end));
    started.clear();
  });
}

/** A process a test spawned itself: ended after the test if still running. */
export function track(proc: ChildProcess): void {
  started.add(proc);
}

/** The CLI with `args`, its output collected; killed after the test if still running. */
export function cli(args: string[], env: Record<string, string | undefined> = {}) {
  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  // The test runner's own colour settings must not decide what the CLI does.
  for (const name of ['FORCE_COLOR', 'NO_COLOR', 'NODE_DISABLE_COLORS']) delete childEnv[name];
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) delete childEnv[name];
    else childEnv[name] = value;
  }
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/simulator/cli.ts', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: childEnv,
  });
  started.add(proc);
  const out = { text: '', err: '' };
  proc.stdout?.on('data', (b: Buffer) => {
    out.text += b.toString();
  });
  proc.stderr?.on('data', (b: Buffer) => {
    out.err += b.toString();
  });
  const exited = once(proc, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  return {
    proc,
    out,
    exited,
    waitFor: (pattern: RegExp) => waitFor(out, proc, pattern),
    /** SIGINT, and the exit code. */
    async stop(): Promise<number | null> {
      proc.kill('SIGINT');
      return (await exited)[0];
    },
  };
}

/** The log lines (stamped `[sim …]`), without the startup banner. */
export function logLines(text: string): string {
  return text
    .split('\n')
    .filter((line) => line.startsWith('[sim '))
    .join('\n');
}

export async function request(
  base: string,
  method: string,
  path: string,
  init: { key?: string; body?: unknown } = {},
) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(init.key ? { authorization: `Bearer ${init.key}` } : {}),
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return {
    status: res.status,
    body: (await res.json()) as { code?: number; data?: Record<string, unknown> },
  };
}

export const BASE = /base URL:\s+(http:\/\/127\.0\.0\.1:\d+)/;

export function waitFor(
  output: { text: string },
  proc: ChildProcess,
  pattern: RegExp,
  // A CLI started through tsx under load takes several seconds to print its first line.
  timeoutMs = scaled(20_000),
): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      proc.stdout?.off('data', check);
      reject(new Error(`no ${pattern} within ${timeoutMs} ms in: ${output.text}`));
    }, timeoutMs);
    const check = () => {
      const m = output.text.match(pattern);
      if (m) {
        clearTimeout(timer);
        proc.stdout?.off('data', check);
        resolve(m);
      }
    };
    proc.stdout?.on('data', check);
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`cli exited (${code}) before ${pattern}: ${output.text}`));
    });
    check();
  });
}
