/**
 * Which of the probe's entities stands for each API key of the recording. A recording names a key
 * by its id part only (never the key): the seeded keys are `TEST_API_KEY:<name>:sim` and a
 * scenario's entities' keys alike, so a key id that names an entity is that entity. Any other (a real
 * sandbox key's id) is given one by `as`, or else the seeded trading entities in order of first
 * appearance: the first burner, the next minter. The report says which.
 */
import type { CassetteEntry } from '../../contract/cassette.js';
import { SEEDED } from '../engine/seed.js';

/** The seeded entities an unnamed key is given, in this order. */
const IN_TURN = [SEEDED.burner.name, SEEDED.minter.name, SEEDED.ineligible.name, SEEDED.noaccount.name];

/** The probe's entity standing for one recorded API key. */
export interface ProbeKeyAssignment {
  /** The key's id part as recorded (`TEST_API_KEY:<id>:…`). */
  keyId: string;
  /** The entity's name (`burner`, a scenario's entity). */
  entity: string;
  /** `named`: the key id is the entity's name; `as`: the option said so; `in turn`: the next free one. */
  how: 'named' | 'as' | 'in turn';
}

/** The entity of every key id in `entries`; throws a RangeError when more keys than entities remain. */
export function assignKeys(
  entries: readonly CassetteEntry[],
  entityNames: readonly string[],
  as: Readonly<Record<string, string>> = {},
): Map<string, ProbeKeyAssignment> {
  for (const [keyId, entity] of Object.entries(as))
    if (!entityNames.includes(entity))
      throw new RangeError(`as: ${keyId}=${entity} names no entity of the probe (${entityNames.join(', ')})`);
  const keyIds: string[] = [];
  for (const entry of entries)
    if (entry.kind !== 'webhook' && entry.keyId !== null && !keyIds.includes(entry.keyId))
      keyIds.push(entry.keyId);
  const out = new Map<string, ProbeKeyAssignment>();
  for (const keyId of keyIds) {
    if (Object.hasOwn(as, keyId)) out.set(keyId, { keyId, entity: as[keyId] as string, how: 'as' });
    else if (entityNames.includes(keyId)) out.set(keyId, { keyId, entity: keyId, how: 'named' });
  }
  const taken = new Set([...out.values()].map((a) => a.entity));
  const free = IN_TURN.filter((name) => !taken.has(name));
  for (const keyId of keyIds) {
    if (out.has(keyId)) continue;
    const entity = free.shift();
    if (entity === undefined)
      throw new RangeError(
        `the cassette uses more API keys than the probe has entities left for them: give ${keyId} one with as (--as ${keyId}=<entity>)`,
      );
    out.set(keyId, { keyId, entity, how: 'in turn' });
  }
  // In order of first appearance, as the report lists them.
  return new Map(keyIds.map((keyId) => [keyId, out.get(keyId) as ProbeKeyAssignment]));
}
