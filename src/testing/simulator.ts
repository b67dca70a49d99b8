// `match-venue/simulator`: the simulator's own API (src/simulator/index.ts) plus `createMockVenue`,
// which binds clients to a simulator and so belongs to the testing layer.

/**
 * The reference simulator: {@link createSimulator} in-process or on a port, its controls, the
 * seeded entities ({@link SEEDED}), and {@link createMockVenue}, an isolated simulator with clients.
 *
 * @module match-venue/simulator
 */

export * from '../simulator/index.js';
export { getMockSimulator } from './mock-mode.js';
export {
  createMockVenue,
  type MockClientOptions,
  type MockVenue,
  type MockVenueOptions,
} from './mock-venue.js';
