import type * as NodeCrypto from 'node:crypto';

type BuiltinLookup = (id: string) => object | undefined;

/**
 * `node:crypto` when the runtime has it (Node, Bun, Deno), found at run time through
 * `process.getBuiltinModule`. A static import would stop a fetch-only runtime (an edge worker) from
 * loading the module at all, even for code that never signs; looked up per call, so a test can hide
 * it to exercise the WebCrypto path.
 */
export function nodeCrypto(): typeof NodeCrypto | undefined {
  const process = (globalThis as { process?: { getBuiltinModule?: BuiltinLookup } }).process;
  if (typeof process?.getBuiltinModule !== 'function') return undefined;
  try {
    return process.getBuiltinModule('node:crypto') as typeof NodeCrypto | undefined;
  } catch {
    return undefined;
  }
}

/** `node:crypto`, or a RangeError naming what needed it (the signers: Node, Bun and Deno only). */
export function requireNodeCrypto(purpose: string): typeof NodeCrypto {
  const crypto = nodeCrypto();
  if (!crypto) {
    throw new RangeError(
      `${purpose} needs node:crypto (Node >= 20.16, Bun or Deno); this runtime has no process.getBuiltinModule('node:crypto').`,
    );
  }
  return crypto;
}
