// `match-venue/testing`: test support over the client and the simulator. Mock mode loads this entry
// by the package's own name, so it must not import msw (an optional peer): that is `match-venue/msw`.

/**
 * Test support over the client and the simulator: the shared mock-mode simulator,
 * {@link createMockVenue}, and the replay of recorded cassettes ({@link createReplay}).
 *
 * @module match-venue/testing
 */

export {
  getMockReplay,
  getMockSimulator,
  getMockWsUrl,
  type MockBinding,
  mockBinding,
} from './mock-mode.js';
export {
  createMockVenue,
  type MockClientOptions,
  type MockVenue,
  type MockVenueOptions,
} from './mock-venue.js';
export { createReplay, type Replay } from './replay/replay.js';
export { UnrecordedRequestError } from './replay/unrecorded.js';
export type { ReplayVenue, ReplayVenueOptions } from './replay-venue.js';
