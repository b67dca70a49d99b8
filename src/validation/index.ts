/**
 * The validation library the generated checks (src/generated/validators.ts) are written in. Client
 * and simulator both run those checks: the client before sending, the simulator on what it
 * receives, so a rule of openapi/ has one home and both sides refuse a bad input alike.
 */
export * from './check.js';
export * from './scalars.js';
export * from './structures.js';
export * from './url.js';
