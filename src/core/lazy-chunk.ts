import { ConfigurationError } from './error.js';

// The SDK's own code that loads on first use (the account mirror, the waits, the telemetry of an
// observed call, the recording): each feature has one loader, made here from a literal `import('./x.js')`, which
// bundlers follow and split into a chunk of its own, so a bot that never uses the feature never
// loads it. (Packages the bundle must not carry go through runtime-import.ts instead.)

/**
 * A loader of one chunk: the first call starts the import, later calls share it. A failed load
 * (a chunk a bundler or a copy left behind, a runtime that cannot import) rejects with
 * ConfigurationError naming the feature and the cause, and the next call tries again.
 */
export function lazyChunk<T>(feature: string, load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch((cause: unknown) => {
      loading = undefined;
      const reason = cause instanceof Error ? cause.message.split('\n')[0] : String(cause);
      throw new ConfigurationError(
        `match-venue could not load the code of its ${feature}: ${reason}. Keep the package's dist/ ` +
          'folder whole (every chunk beside the entry), or bundle it with its chunks.',
        { cause },
      );
    });
    return loading;
  };
}
