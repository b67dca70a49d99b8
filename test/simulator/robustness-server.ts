import { createSimulator, SEEDED, type Simulator } from 'match-venue/simulator';
import { afterEach, expect } from 'vitest';
import type { RawConnection, RawResponse } from '../../bench/raw-http.js';

// Shared by the robustness-*.test.ts files (issue 9 point 3): a listening simulator closed after
// each test, and readers for the raw answers.

export const AUTH = { authorization: `Bearer ${SEEDED.burner.apiKey}`, 'content-type': 'application/json' };
export const WAIT_MS = 3_000;

interface Started {
  sim: Simulator;
  port: number;
  logged: string[];
}

let started: Started | undefined;

/** Closes, after each test of the calling file, the simulator `start` opened. */
export function useStartedCleanup(): void {
  afterEach(async () => {
    await started?.sim.close();
    started = undefined;
  });
}

export async function start(options: Parameters<typeof createSimulator>[0] = {}): Promise<Started> {
  const logged: string[] = [];
  const sim = createSimulator({
    ...options,
    logger: { info: () => undefined, error: (message) => logged.push(message) },
  });
  const running = await sim.listen({ port: 0 });
  started = { sim, port: Number(new URL(running.url).port), logged };
  return started;
}

export async function answer(conn: RawConnection, head = false): Promise<RawResponse> {
  const got = await conn.next(WAIT_MS, head);
  if (typeof got === 'string') throw new Error(`expected an answer, the connection gave: ${got}`);
  return got;
}

export function json(r: RawResponse): unknown {
  expect(r.headers['content-type']).toBe('application/json');
  return JSON.parse(r.body.toString('utf8'));
}

export async function call(sim: Simulator, method: string, path: string, body?: string): Promise<Response> {
  return sim.handle(new Request(`http://sim.test${path}`, { method, headers: AUTH, body: body ?? null }));
}
