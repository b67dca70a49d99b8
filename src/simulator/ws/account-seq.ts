/**
 * Lets the REST list answer with the caller's account-channel seq (`x-account-seq`), which lives
 * in the socket layer. Keyed by the simulator object, so this module needs neither `ws` nor the
 * HTTP layer: the in-process handler and msw import it without pulling a socket server in.
 */
type AccountSeqSource = (entityId: string) => number;

const sources = new WeakMap<object, Set<AccountSeqSource>>();

/** A socket endpoint of `sim` starts numbering account events; the returned function stops it. */
export function registerAccountSeq(sim: object, source: AccountSeqSource): () => void {
  let set = sources.get(sim);
  if (!set) {
    set = new Set();
    sources.set(sim, set);
  }
  set.add(source);
  return () => {
    set.delete(source);
  };
}

/**
 * The entity's current account seq, or undefined when `sim` has no socket endpoint, or has
 * several that number differently (one attached later): no single number would be true for
 * every socket then.
 */
export function accountSeqOf(sim: object, entityId: string): number | undefined {
  let seq: number | undefined;
  for (const source of sources.get(sim) ?? []) {
    const n = source(entityId);
    if (seq !== undefined && n !== seq) return undefined;
    seq = n;
  }
  return seq;
}
