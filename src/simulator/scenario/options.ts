/**
 * createSimulator's `scenario` option: the scenario's clock settings, seed and market become
 * options, and an option given explicitly wins over the scenario's (as a CLI flag wins over the
 * file): `seed`, `clock`, `startTime`, `cycleMs`, `lockMs`, `settleMs` one by one, and `market`
 * over the scenario's whole population (its phases are then not used).
 */
import type { SimulatorOptions } from '../options.js';
import { DEFAULT_ENGINE_CONFIG } from '../engine/types.js';
import { checkScenario, type ResolvedScenario, ScenarioError } from './check.js';
import { scenarioMarket } from './run.js';

/** The options with the scenario's settings under them, and the scenario (checked) if there is one. */
export function applyScenario(given: SimulatorOptions): {
  options: SimulatorOptions;
  scenario?: ResolvedScenario;
} {
  if (given.scenario === undefined) return { options: given };
  const checked = checkScenario(given.scenario);
  const scenario = given.market === undefined ? checked : { ...checked, phases: [] };
  const { mode, startTime, cycleMs, lockMs, settleMs } = scenario.clock;
  const market = scenarioMarket(scenario);
  const fromScenario: SimulatorOptions = {
    ...(mode === undefined ? {} : { clock: mode }),
    ...(startTime === undefined ? {} : { startTime }),
    ...(cycleMs === undefined ? {} : { cycleMs }),
    ...(lockMs === undefined ? {} : { lockMs }),
    ...(settleMs === undefined ? {} : { settleMs }),
    ...(scenario.seed === undefined ? {} : { seed: scenario.seed }),
    ...(market === undefined ? {} : { market }),
  };
  // An option present but undefined is an option not given.
  const explicit = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined));
  const options: SimulatorOptions = { ...fromScenario, ...explicit };
  // The scenario's cycle against the lock it runs with (its own, an option's or the default): a
  // mistake of the file is a ScenarioError naming it, not the engine's RangeError later.
  const lock = options.lockMs ?? DEFAULT_ENGINE_CONFIG.lockMs;
  if (explicit.cycleMs === undefined && cycleMs !== undefined && lock >= cycleMs)
    throw new ScenarioError('clock.cycleMs', `must be longer than the lock window (lockMs ${lock})`);
  return { options, scenario };
}
