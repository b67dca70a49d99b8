/**
 * The background market's configuration: presets and their checked, merged form. Money is decimal
 * USD strings and fees decimal bps strings (never floats); probabilities are plain numbers in [0, 1].
 */
import { z } from 'zod';
import { MatchVenueError } from '../../contract/base-error.js';
import { parseCentiBps, parseCents } from '../engine/money.js';

const usd = z
  .string()
  .regex(/^\d{1,12}(\.\d{1,2})?$/, 'must be a USD amount with at most 2 decimals, as a string');
const bps = z
  .string()
  .regex(/^\d{1,6}(\.\d{1,2})?$/, 'must be basis points with at most 2 decimals, as a string');
const chance = z.number().min(0, 'must be at least 0').max(1, 'must be at most 1');
const count = (max: number) => z.number().int('must be an integer').min(0, 'must not be negative').max(max);
const range = <T extends z.ZodType>(item: T) => z.object({ min: item, max: item }).strict();

/** An inclusive range. */
export interface MarketRange<T> {
  /** The least value. */
  min: T;
  /** The greatest value. */
  max: T;
}

/** A background market: noise traders, liquidity providers, bursts and one-sided periods (docs/MARKET.md). */
export interface MarketConfig {
  /** Noise traders: half BURN, half MINT by number. */
  noise: {
    /** How many. */
    count: number;
    /** Chance in [0, 1] that a trader places in an auction. */
    activity: number;
    /** Orders a placing trader sends per auction. */
    ordersPerAuction: MarketRange<number>;
    /** Order sizes, USD strings, multiples of 100.00. */
    size: MarketRange<string>;
    /** Limits drawn uniformly in center +/- spread, bps strings. */
    fee: {
      /** The center. */
      centerBps: string;
      /** The half-width. */
      spreadBps: string;
    };
    /** Chance of a market order. */
    marketShare: number;
    /** Weights of the post-fill elections. */
    postFill: {
      /** Weight of `cancel`. */
      cancel: number;
      /** Weight of `roll`. */
      roll: number;
      /** Weight of `fallback`. */
      fallback: number;
    };
    /** With this many roll orders alive a trader elects `cancel` instead. */
    maxResting: number;
  };
  /** Liquidity providers: one quote per auction, sides alternating. */
  liquidity: {
    /** How many. */
    count: number;
    /** Quote sizes, USD strings, multiples of 100.00. */
    size: MarketRange<string>;
    /** BURN quotes at reference - this, MINT at reference + this, bps string. */
    halfSpreadBps: string;
    /** The reference; default the simulator's `referenceFeeBps`. */
    referenceFeeBps?: string | undefined;
  };
  /** Periods of more orders. */
  bursts: {
    /** Chance per auction (outside a burst) that one starts. */
    chance: number;
    /** Its length in auctions. */
    lengthAuctions: number;
    /** Orders per placing trader are multiplied by this. */
    factor: number;
  };
  /** Periods when only one side's noise traders place. */
  oneSided: {
    /** Chance per auction (outside a period) that one starts. */
    chance: number;
    /** Its length in auctions. */
    lengthAuctions: number;
    /** The side that places, or `random` per period. */
    side: 'BURN' | 'MINT' | 'random';
  };
  /** Each participant's wallet, venue-only balance and bank, USD string. */
  balance: string;
}

const noiseSchema = z
  .object({
    count: count(10_000),
    activity: chance,
    ordersPerAuction: range(count(1_000)),
    size: range(usd),
    fee: z.object({ centerBps: bps, spreadBps: bps }).strict(),
    marketShare: chance,
    postFill: z.object({ cancel: chance, roll: chance, fallback: chance }).strict(),
    maxResting: count(1_000),
  })
  .strict();
const liquiditySchema = z
  .object({ count: count(1_000), size: range(usd), halfSpreadBps: bps, referenceFeeBps: bps.optional() })
  .strict();
const burstsSchema = z.object({ chance, lengthAuctions: count(100_000), factor: count(100) }).strict();
const oneSidedSchema = z
  .object({ chance, lengthAuctions: count(100_000), side: z.enum(['BURN', 'MINT', 'random']) })
  .strict();

/** The whole configuration, every field present (what a preset is). */
export const MarketConfigSchema: z.ZodType<MarketConfig> = z
  .object({
    noise: noiseSchema,
    liquidity: liquiditySchema,
    bursts: burstsSchema,
    oneSided: oneSidedSchema,
    balance: usd,
  })
  .strict();

/**
 * What `market` accepts, as a schema (a scenario file's phases use it, and its JSON Schema is
 * drawn from it): a preset name, or groups over a preset, each field optional. The rules across
 * fields (min not above max, sizes in multiples of 100.00) are checked by `resolveMarket`.
 */
export const MarketOptionSchema = z.union([
  z.enum(['calm', 'busy', 'one-sided']),
  z
    .object({
      preset: z.enum(['calm', 'busy', 'one-sided']).optional(),
      noise: noiseSchema.partial().optional(),
      liquidity: liquiditySchema.partial().optional(),
      bursts: burstsSchema.partial().optional(),
      oneSided: oneSidedSchema.partial().optional(),
      balance: usd.optional(),
    })
    .strict(),
]);

/** What `market` accepts: a preset name, or a configuration over a preset (default `calm`). */
export type MarketOption = MarketPreset | MarketOverrides;
/** The preset names. */
export type MarketPreset = 'calm' | 'busy' | 'one-sided';

/** A configuration over a preset: any group or field left out is the preset's. */
export interface MarketOverrides {
  /** The preset the fields given replace parts of; default `calm`. */
  preset?: MarketPreset;
  /** Noise traders (half on each side by index). */
  noise?: Partial<MarketConfig['noise']>;
  /** Liquidity providers quoting around a reference fee. */
  liquidity?: Partial<MarketConfig['liquidity']>;
  /** Bursts: more orders per trader for a few auctions. */
  bursts?: Partial<MarketConfig['bursts']>;
  /** One-sided periods: only one side's noise traders place. */
  oneSided?: Partial<MarketConfig['oneSided']>;
  /** Each participant's wallet, venue-only balance and bank, USD. */
  balance?: string;
}

const quiet = { chance: 0, lengthAuctions: 1 };

/** The presets (docs/MARKET.md lists what each produces). */
export const MARKET_PRESETS: Readonly<Record<MarketPreset, MarketConfig>> = {
  calm: {
    noise: {
      count: 20,
      activity: 0.3,
      ordersPerAuction: { min: 1, max: 1 },
      size: { min: '100.00', max: '5000.00' },
      fee: { centerBps: '5', spreadBps: '2' },
      marketShare: 0.05,
      postFill: { cancel: 0.8, roll: 0.1, fallback: 0.1 },
      maxResting: 2,
    },
    liquidity: { count: 2, size: { min: '1000.00', max: '10000.00' }, halfSpreadBps: '1' },
    bursts: { ...quiet, factor: 1 },
    oneSided: { ...quiet, side: 'random' },
    balance: '1000000000.00',
  },
  busy: {
    noise: {
      count: 200,
      activity: 0.7,
      ordersPerAuction: { min: 1, max: 3 },
      size: { min: '100.00', max: '50000.00' },
      fee: { centerBps: '5', spreadBps: '4' },
      marketShare: 0.1,
      postFill: { cancel: 0.7, roll: 0.2, fallback: 0.1 },
      maxResting: 2,
    },
    liquidity: { count: 4, size: { min: '5000.00', max: '50000.00' }, halfSpreadBps: '0.5' },
    bursts: { chance: 0.05, lengthAuctions: 3, factor: 3 },
    oneSided: { chance: 0.02, lengthAuctions: 5, side: 'random' },
    balance: '1000000000.00',
  },
  'one-sided': {
    noise: {
      count: 50,
      activity: 0.5,
      ordersPerAuction: { min: 1, max: 2 },
      size: { min: '100.00', max: '20000.00' },
      fee: { centerBps: '5', spreadBps: '3' },
      marketShare: 0.1,
      postFill: { cancel: 0.8, roll: 0.1, fallback: 0.1 },
      maxResting: 2,
    },
    liquidity: { count: 2, size: { min: '1000.00', max: '10000.00' }, halfSpreadBps: '1' },
    bursts: { ...quiet, factor: 1 },
    // Every auction starts a new BURN-only period: the MINT noise traders never place.
    oneSided: { chance: 1, lengthAuctions: 1, side: 'BURN' },
    balance: '1000000000.00',
  },
};

const PRESET_NAMES = Object.keys(MARKET_PRESETS) as MarketPreset[];

/** Thrown for a market option that cannot be used: names the path and the rule. */
export class MarketConfigError extends MatchVenueError {
  static override readonly kind = 'SIM_MARKET_INVALID';
  /** Always `MarketConfigError`. */
  override name = 'MarketConfigError';
}

/**
 * The preset of that name, own properties only: `constructor` or `__proto__` (a snapshot's or a
 * file's text) must be an unknown name, not Object.prototype's members (which gave 500s).
 */
function presetNamed(name: unknown): MarketConfig | undefined {
  return typeof name === 'string' && Object.hasOwn(MARKET_PRESETS, name)
    ? MARKET_PRESETS[name as MarketPreset]
    : undefined;
}

/** A preset name, or overrides merged over their preset, checked; throws MarketConfigError. */
export function resolveMarket(option: unknown, where = 'market'): MarketConfig {
  if (typeof option === 'string') {
    const preset = presetNamed(option);
    if (!preset)
      throw new MarketConfigError(`${where} must be one of ${PRESET_NAMES.join(', ')}; got "${option}"`);
    return structuredClone(preset);
  }
  if (option === null || typeof option !== 'object' || Array.isArray(option))
    throw new MarketConfigError(`${where} must be a preset name or a configuration object`);
  const { preset = 'calm', ...rest } = option as Record<string, unknown>;
  const base = presetNamed(preset);
  if (!base)
    throw new MarketConfigError(
      `${where}.preset must be one of ${PRESET_NAMES.join(', ')}; got ${JSON.stringify(preset)}`,
    );
  const merged = structuredClone(base) as unknown as Record<string, unknown>;
  for (const [k, v] of Object.entries(rest)) {
    // Only a group the preset has is merged into; any other key (`__proto__` too) is defined as
    // given, so the schema refuses it by name instead of an assignment reaching the prototype.
    const b = Object.hasOwn(merged, k) ? merged[k] : undefined;
    const value =
      b && typeof b === 'object' && v && typeof v === 'object' && !Array.isArray(v) ? { ...b, ...v } : v;
    Object.defineProperty(merged, k, { value, enumerable: true, writable: true, configurable: true });
  }
  return checkMarket(merged, where);
}

/** Checks a whole configuration: the schema, then the rules across fields. */
export function checkMarket(value: unknown, where: string): MarketConfig {
  const r = MarketConfigSchema.safeParse(value);
  if (!r.success) {
    const issue = r.error.issues[0];
    const path = [where, ...(issue?.path ?? [])].join('.');
    throw new MarketConfigError(`${path} ${issue?.message ?? 'is invalid'}`);
  }
  const c = r.data;
  for (const [path, size] of [
    ['noise.size', c.noise.size],
    ['liquidity.size', c.liquidity.size],
  ] as const) {
    const min = parseCents(size.min) as number;
    const max = parseCents(size.max) as number;
    if (min <= 0 || min % 10_000 !== 0 || max % 10_000 !== 0)
      throw new MarketConfigError(
        `${where}.${path} must be positive multiples of 100.00 (the venue's order amounts)`,
      );
    if (min > max) throw new MarketConfigError(`${where}.${path}.min must not exceed max`);
  }
  if (c.noise.ordersPerAuction.min > c.noise.ordersPerAuction.max)
    throw new MarketConfigError(`${where}.noise.ordersPerAuction.min must not exceed max`);
  const p = c.noise.postFill;
  if (p.cancel + p.roll + p.fallback <= 0)
    throw new MarketConfigError(`${where}.noise.postFill must give at least one election a positive weight`);
  for (const [name, period] of [
    ['bursts', c.bursts],
    ['oneSided', c.oneSided],
  ] as const)
    if (period.chance > 0 && period.lengthAuctions < 1)
      throw new MarketConfigError(
        `${where}.${name}.lengthAuctions must be at least 1 when chance is above 0`,
      );
  for (const f of [c.noise.fee.centerBps, c.noise.fee.spreadBps, c.liquidity.halfSpreadBps])
    if (parseCentiBps(f) === undefined) throw new MarketConfigError(`${where}: ${f} is not a fee in bps`);
  return c;
}
