/**
 * The market's seeded generator: mulberry32 with its state word readable and settable (a snapshot
 * carries it). One implementation, shared with the engine's fault draws.
 */
export { SeededRandom } from '../engine/ids.js';
