/** What the dashboard's server needs of the simulator, and what the page is told it offers. */
import type { SimulatorEvent } from '../engine/types.js';
import { controlRoutes } from '../http/control-routes.js';

/** What the dashboard's server needs of the simulator. */
export interface UiSimulator {
  onEvent(listener: (event: SimulatorEvent) => void): () => void;
  onControl?(listener: (signal: { type: string }) => void): () => void;
  now?(): number;
}

/**
 * Control routes the page offers only where this simulator has them: read from the route table,
 * so the buttons appear with the routes (POST /_sim/snapshot, POST /_sim/restore) and no probe
 * request is needed.
 */
export function features(): { snapshot: boolean; restore: boolean } {
  return {
    snapshot: controlRoutes['/_sim/snapshot']?.POST !== undefined,
    restore: controlRoutes['/_sim/restore']?.POST !== undefined,
  };
}
