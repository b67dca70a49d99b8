// `match-venue/simulator`: the simulator's own API (src/simulator/index.ts) plus `createMockVenue`,
// which binds clients to a simulator and so belongs to the testing layer.
export * from '../simulator/index.js';
export { getMockSimulator } from './mock-mode.js';
export {
  createMockVenue,
  type MockClientOptions,
  type MockVenue,
  type MockVenueOptions,
} from './mock-venue.js';
