import { afterEach, beforeEach } from 'vitest';
import { startVenue, type Venue } from './helpers.js';

// Shared by the stream tests that run against the simulator: a fresh venue per test, and whatever
// a test opened on it closed after it.

/** The current test's venue (a live binding: reassigned before each test). */
export let venue: Venue;
/** Run after each test, newest first. */
export const cleanups: (() => Promise<void> | void)[] = [];

/** Starts a venue before each test of the calling file; runs the cleanups and closes it after. */
export function useVenue(): void {
  beforeEach(async () => {
    venue = await startVenue();
  });
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
    await venue.close();
  });
}
