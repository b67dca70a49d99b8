/**
 * Snapshots (`POST /_sim/snapshot`, `/_sim/restore`; `sim.snapshot()`, `sim.restore(doc)`): the
 * whole simulator state as one versioned JSON document, and the check a document passes before a
 * simulator is put there. The document is checked in full first, so a bad one changes nothing.
 */
import type { z } from 'zod';
import { MatchVenueError } from '../../contract/base-error.js';
import type { EngineSnapshot, VenueEngine } from '../engine/engine.js';
import { type Faults, FaultsBody } from '../engine/faults.js';
import { SnapshotReferenceError } from '../engine/snapshot.js';
import type { EngineStateView } from '../engine/state-views.js';
import type { EngineConfig } from '../engine/types.js';
import { type MarketConfig, MarketConfigError, resolveMarket } from '../market/config.js';
import type { MarketPopulation, PopulationState } from '../market/population.js';
import { checkDocumentRules, DocumentRuleError } from './checks.js';
import { CompactFormError, compactState, expandState } from './compact.js';
import { withKeys } from './keys.js';
import {
  type CheckedDocument,
  SNAPSHOT_FORMAT,
  SNAPSHOT_VERSION,
  SNAPSHOT_VERSIONS_READ,
  type SnapshotDocument,
  SnapshotSchema,
} from './schema.js';

export { SNAPSHOT_FORMAT, SNAPSHOT_VERSION, type SnapshotDocument } from './schema.js';

/** A document that cannot be restored: `path` names the part, the message says the rule. */
export class SnapshotError extends MatchVenueError {
  static override readonly kind = 'SIM_SNAPSHOT_INVALID';
  /** Always `SnapshotError`. */
  override name = 'SnapshotError';

  constructor(
    message: string,
    /** Where in the document (`engine.state.orders.3.amountCents`); `` for the whole. */
    readonly path: string,
  ) {
    super(message);
  }
}

/** What a snapshot is taken from. */
export interface SnapshotParts {
  now: number;
  seed: number;
  config: EngineConfig;
  engine: EngineSnapshot;
  market: { config: MarketConfig; state: PopulationState } | undefined;
  faults: Faults;
}

/**
 * The document for `parts` (already deep copies: the simulator may run on): version 2, its orders
 * compact; `expanded` writes version 1 (the store's checkpoints, read back by this simulator only).
 */
export function snapshotDocument(parts: SnapshotParts, expanded = false): SnapshotDocument {
  const engine = expanded ? parts.engine : { ...parts.engine, state: compactState(parts.engine.state) };
  const document = {
    format: SNAPSHOT_FORMAT,
    version: expanded ? 1 : SNAPSHOT_VERSION,
    clock: { now: parts.now },
    seed: parts.seed,
    config: { ...parts.config },
    engine,
    market: parts.market
      ? {
          config: structuredClone(parts.market.config) as unknown as Record<string, unknown>,
          state: parts.market.state,
        }
      : null,
    faults: structuredClone(parts.faults) as Record<string, unknown>,
  };
  // The public type is the documented outline; the checked one is the same document in detail.
  return document as unknown as SnapshotDocument;
}

/** A document checked for restore: its market configuration and faults re-read by their own rules. */
export interface CheckedSnapshot {
  document: CheckedDocument;
  market: MarketConfig | undefined;
  faults: Faults;
}

const path = (parts: readonly PropertyKey[]) => parts.map(String).join('.');

function fail(issue: z.core.$ZodIssue | undefined, prefix: string): never {
  const where = path([...(prefix ? [prefix] : []), ...(issue?.path ?? [])]);
  throw new SnapshotError(`snapshot ${where || 'document'}: ${issue?.message ?? 'is invalid'}`, where);
}

/**
 * Checks a document for restore, or throws a SnapshotError naming the path and the rule: another
 * format or version first, by name, then its shape, then the rules across its parts
 * (snapshot/checks.ts). Nothing is built or changed here.
 */
export function checkSnapshot(input: unknown): CheckedSnapshot {
  if (input === null || typeof input !== 'object' || Array.isArray(input))
    throw new SnapshotError('snapshot document must be a JSON object', '');
  const { format, version } = input as { format?: unknown; version?: unknown };
  if (format !== SNAPSHOT_FORMAT)
    throw new SnapshotError(
      `snapshot format must be "${SNAPSHOT_FORMAT}" (a document from POST /_sim/snapshot); got ${JSON.stringify(format) ?? 'none'}`,
      'format',
    );
  if (!SNAPSHOT_VERSIONS_READ.includes(version as number))
    throw new SnapshotError(
      `snapshot version ${JSON.stringify(version) ?? 'none'} is not supported: this simulator reads versions ${SNAPSHOT_VERSIONS_READ.join(' and ')}; take the snapshot again with this version`,
      'version',
    );
  const r = SnapshotSchema.safeParse(version === 1 ? input : expanded(input as { engine?: unknown }));
  if (!r.success) fail(r.error.issues[0], '');
  const document = r.data;
  const faults = FaultsBody.safeParse(document.faults);
  if (!faults.success) fail(faults.error.issues[0], 'faults');
  let market: MarketConfig | undefined;
  try {
    market = document.market ? resolveMarket(document.market.config, 'market.config') : undefined;
  } catch (err) {
    if (err instanceof MarketConfigError) throw new SnapshotError(`snapshot ${err.message}`, 'market.config');
    throw err;
  }
  try {
    checkDocumentRules(document);
  } catch (err) {
    if (err instanceof DocumentRuleError) throw new SnapshotError(`snapshot ${err.message}`, err.path);
    throw err;
  }
  const { killSockets: _ignored, ...kept } = faults.data;
  return { document, market, faults: kept };
}

/** A version 2 document with its engine state in the version 1 shape (snapshot/compact.ts). */
function expanded(input: { engine?: unknown }): unknown {
  const engine = input.engine as { state?: unknown } | null | undefined;
  if (engine === null || typeof engine !== 'object') return input;
  try {
    return { ...input, engine: { ...engine, state: expandState(engine.state) } };
  } catch (err) {
    if (err instanceof CompactFormError) throw new SnapshotError(`snapshot ${err.message}`, err.path);
    throw err;
  }
}

/** What a simulator is put together from: its market, seed and engine configuration. */
export interface EngineSetup {
  market: MarketConfig | undefined;
  seed: number;
  config: Partial<EngineConfig>;
}

/** A restore built whole beside the running simulator, to be swapped in only once it passed. */
export interface PreparedRestore {
  /** What the simulator takes over as it is. */
  install: EngineSetup & { engine: VenueEngine; population: MarketPopulation | undefined };
  now: number;
  faults: Faults;
}

/**
 * Checks `input` and builds the engine (and population) it describes beside the running one, then
 * checks that engine as the invariant checker checks a running one: a document refused anywhere
 * changes nothing, and one that passes is a state the engine itself could have reached. `build`
 * makes an engine for a setup without installing it; `current` is the running state, whose API
 * keys fill the ones a document withheld (keys.ts).
 */
export function prepareRestore(
  input: unknown,
  build: (setup: EngineSetup) => { engine: VenueEngine; population: MarketPopulation | undefined },
  current: Pick<EngineStateView, 'entities'>,
): PreparedRestore {
  const { document: d, market, faults } = checkSnapshot(input);
  const setup = { market, seed: d.seed, config: d.config };
  const { engine, population } = build(setup);
  const state = { ...d.engine.state, entities: withKeys(d.engine.state.entities, current) };
  try {
    // The checked document is zod's own copy of the input: no caller holds it, so it is not copied.
    engine.importSnapshot({ ...d.engine, state } as EngineSnapshot, true);
  } catch (err) {
    if (err instanceof SnapshotReferenceError)
      throw new SnapshotError(`snapshot ${err.message}`, 'engine.state');
    throw err;
  }
  const built = engine.state;
  for (const p of population?.accounts() ?? []) {
    const e = built.entities.get(p.entityId);
    const wallet = built.wallets.get(p.walletId);
    if (
      !e?.hasAccount ||
      wallet?.entityId !== e.id ||
      built.fiatAccounts.get(p.fiatAccountId)?.entityId !== e.id
    )
      throw new SnapshotError(
        `snapshot engine.state.entities must hold the market's participant ${p.name} (entity ${p.entityId}) with its wallet and fiat account`,
        'engine.state.entities',
      );
  }
  // Without the checks only the whole history explains: a store's document has evicted it.
  const broken = engine.checkInvariants({ records: false });
  if (broken.length > 0)
    throw new SnapshotError(`snapshot engine.state: the books do not balance: ${broken[0]}`, 'engine.state');
  if (d.market) population?.setState(d.market.state);
  return { install: { ...setup, engine, population }, now: d.clock.now, faults };
}
