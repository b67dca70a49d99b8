/**
 * API keys in snapshots. `POST /_sim/snapshot` over HTTP without the control token withholds the
 * keys `/_sim/state` withholds (http/key-visibility.ts): an unpublished entity's `apiKey` is null
 * in the document. Restoring such a document gives each of those entities a key coherently: the
 * key the restoring simulator already holds for the same entity (so a snapshot and restore on one
 * simulator leaves every bot's key working), else a new random one (read it from `/_sim/state` with
 * the control token). A document with its keys restores them exactly, as before.
 */
import type { EngineStateView } from '../engine/state-views.js';
import type { Entity } from '../engine/types.js';

/** A document's entity: its key may be withheld. */
export type DocumentEntity = Omit<Entity, 'apiKey'> & { apiKey: string | null };

/** A fresh test key for `name`: its id part is the name (as the seeded keys), its secret random. */
function freshKey(name: string): string {
  const id = name.replace(/[^\w.-]/g, '-').slice(0, 64) || 'entity';
  const secret = globalThis.crypto.randomUUID().replaceAll('-', '');
  return `TEST_API_KEY:${id}:${secret}`;
}

/** `entities` with every withheld key filled (see above); each key distinct from every other. */
export function withKeys(
  entities: readonly DocumentEntity[],
  current: Pick<EngineStateView, 'entities'>,
): Entity[] {
  if (entities.every((e) => e.apiKey !== null)) return entities as Entity[];
  const taken = new Set<string>();
  for (const e of entities) if (e.apiKey !== null) taken.add(e.apiKey);
  return entities.map((e) => {
    if (e.apiKey !== null) return e as Entity;
    const kept = current.entities.get(e.id)?.apiKey;
    const apiKey = kept !== undefined && !taken.has(kept) ? kept : freshKey(e.name);
    taken.add(apiKey);
    return { ...e, apiKey };
  });
}
