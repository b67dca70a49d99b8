// The open streams' buffered events, which the `match_venue.stream.buffer.depth` gauge reads: each
// stream adds itself when it opens, whether or not OpenTelemetry is on (otel-bridge.ts reads them
// once a meter provider is registered).

/** What the buffer-depth gauge reads: each open stream's events waiting, by channel. */
export type DepthSource = () => Iterable<[channel: string, depth: number]>;

const sources = new Set<DepthSource>();

/** Adds an open stream to the buffer-depth gauge; returns its removal. */
export function watchDepth(source: DepthSource): () => void {
  sources.add(source);
  return () => sources.delete(source);
}

/** The streams the gauge reads now. */
export function depthSources(): Iterable<DepthSource> {
  return sources;
}
