import {
  createSimulator,
  type RunningSimulator,
  type Simulator,
  type SimulatorOptions,
} from 'match-venue/simulator';
import { afterEach, beforeEach } from 'vitest';
import type { HoldingProxy } from './holding-proxy.js';

/**
 * A simulator listening on loopback for each test, and a slot for the holding proxy a test puts in
 * front of it: both closed after the test. Read its fields inside tests (they are replaced per test).
 */
export interface ProxiedSimulator {
  sim: Simulator;
  running: RunningSimulator;
  proxy: HoldingProxy | undefined;
}

export function proxiedSimulator(options: SimulatorOptions = {}): ProxiedSimulator {
  const rig = { proxy: undefined } as ProxiedSimulator;
  beforeEach(async () => {
    rig.sim = createSimulator(options);
    rig.running = await rig.sim.listen();
  });
  afterEach(async () => {
    await rig.proxy?.close();
    rig.proxy = undefined;
    await rig.sim.close();
  });
  return rig;
}

/** Retry settings with no waiting between attempts. */
export const noWait = { sleep: async () => {} };
