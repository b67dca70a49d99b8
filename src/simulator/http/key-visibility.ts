/**
 * Which API keys `/_sim/state` shows. The seeded test keys are published (SEEDED, the README), so
 * they are always shown; any other entity's key only to callers the server trusts: in-process
 * callers, and HTTP requests that carried the control token. The node:http binding marks the
 * others, so that the web handler (which also runs in browsers under msw) needs no node module.
 */
import { SEEDED_API_KEYS } from '../../contract/api-key.js';

const PUBLISHED: ReadonlySet<string> = new Set(Object.values(SEEDED_API_KEYS));
const withheld = new WeakSet<Request>();

/** Marks a request from the network that did not carry the control token. */
export function withholdKeys(req: Request): void {
  withheld.add(req);
}

interface StateWithEntities {
  entities: { apiKey: string | null }[];
}

function hasEntities(state: unknown): state is StateWithEntities {
  return typeof state === 'object' && state !== null && Array.isArray((state as StateWithEntities).entities);
}

/** `state` as `req` may see it: unpublished keys read `null` for a marked request. */
export function visibleState<T>(state: T, req: Request): T {
  if (!withheld.has(req) || !hasEntities(state)) return state;
  const entities = state.entities.map((e) =>
    e.apiKey === null || PUBLISHED.has(e.apiKey) ? e : { ...e, apiKey: null },
  );
  return { ...state, entities };
}

interface DocumentWithEntities {
  engine: { state: StateWithEntities };
}

function hasEngineEntities(doc: unknown): doc is DocumentWithEntities {
  const engine = (doc as Partial<DocumentWithEntities> | null)?.engine;
  return typeof engine === 'object' && engine !== null && hasEntities(engine.state);
}

/**
 * A snapshot document as `req` may see it: for a marked request, unpublished keys read `null` as
 * in `/_sim/state` (a restore of it gives those entities keys again: snapshot/keys.ts).
 */
export function visibleSnapshot<T>(doc: T, req: Request): T {
  if (!withheld.has(req) || !hasEngineEntities(doc)) return doc;
  const state = visibleState(doc.engine.state, req);
  return { ...doc, engine: { ...doc.engine, state } };
}
