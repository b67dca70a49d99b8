/**
 * The invariant violations of a simulator from this tree or from an older one, which the drivers
 * load for their "before" runs (`bench/chaos.ts --src`, `bench/fuzz.ts --sim`): the simulator's own
 * `checkInvariants()` now, the entry's `checkInvariants(sim)` function before it moved there.
 */
type Check = (target: unknown, options?: { records?: boolean }) => string[];

export function invariantsOf(sim: object, entry: object, options: { records?: boolean } = {}): string[] {
  const own = (sim as { checkInvariants?: (o: { records?: boolean }) => string[] }).checkInvariants;
  if (typeof own === 'function') return own.call(sim, options);
  const older = (entry as { checkInvariants?: Check }).checkInvariants;
  if (typeof older !== 'function') throw new Error('this simulator has no checkInvariants');
  return older(sim, options);
}
