/**
 * A scenario file's one schema (docs/MARKET.md, Scenarios): entities and balances, the background
 * market by auction number, a fault schedule by auction number, clock settings and the seed.
 * `schemas/scenario.schema.json` is drawn from this schema (scripts/generate-scenario-schema.ts);
 * the rules across fields that a JSON Schema cannot say are checked in check.ts.
 */
import { z } from 'zod';
import { FaultsBody } from '../engine/faults.js';
import { MarketOptionSchema } from '../market/config.js';
import { MAX_DURATION_MS } from '../clock/start-time.js';
import type { ScenarioDocument } from './types.js';

export type { ScenarioDocument, ScenarioEntity } from './types.js';

/** The scenario document versions this simulator reads. */
export const SCENARIO_VERSION = 1;

const usd = z
  .string()
  .regex(/^\d{1,12}(\.\d{1,2})?$/, 'must be a USD amount with at most 2 decimals, as a string');
const auctionNumber = z.number().int('must be an integer').min(1, 'must be at least 1');
const ms = (min: number) =>
  z
    .number()
    .int('must be an integer')
    .min(min, `must be at least ${min}`)
    .max(MAX_DURATION_MS, `must be at most ${MAX_DURATION_MS} ms (a year)`);

/** One entity's balances: a seeded one's replace its opening balances; a new one starts with them. */
const EntitySchema = z
  .object({
    wallet: usd.optional().describe('USD stablecoin wallet (BURN orders draw on it)'),
    venueBalance: usd.optional().describe('venue-only balance (MINT orders draw on it), prefunded'),
    bank: usd.optional().describe('bank (fiat) account: settlement proceeds, withdrawals, wires'),
    fundingSide: z
      .enum(['BURN', 'MINT'])
      .optional()
      .describe('a new entity only: the side its account summary reports (default BURN)'),
  })
  .strict();

/** The scenario file's shape (the interfaces of types.ts). */
export const ScenarioSchema: z.ZodType<ScenarioDocument> = z
  .object({
    $schema: z.string().optional().describe('the JSON Schema, for editors'),
    version: z.literal(SCENARIO_VERSION).describe('the scenario format version'),
    description: z.string().optional(),
    seed: z
      .number()
      .int('must be an integer')
      .min(0, 'must not be negative')
      .optional()
      .describe('seeds the fault draws and the background market'),
    clock: z
      .object({
        mode: z.enum(['manual', 'real']).optional(),
        startTime: z
          .union([z.string(), z.number().int('must be an integer').min(0, 'must not be negative')])
          .optional()
          .describe('ISO 8601 instant with Z or an offset, or epoch ms'),
        cycleMs: ms(1).optional(),
        lockMs: ms(0).optional(),
        settleMs: ms(0).optional(),
      })
      .strict()
      .optional(),
    entities: z
      .record(
        z
          .string()
          .regex(
            /^[a-z][a-z0-9-]{1,31}$/,
            'must be 2-32 characters: lowercase letters, digits and -, starting with a letter',
          ),
        EntitySchema,
      )
      .optional()
      .describe('by name: a seeded entity (burner, minter, ineligible) or a new one'),
    phases: z
      .array(
        z
          .object({
            fromAuction: auctionNumber,
            market: z
              .union([MarketOptionSchema, z.null()])
              .describe('a preset, a configuration over one, or null: no background market'),
          })
          .strict(),
      )
      .optional()
      .describe('the background market from each auction on, ascending'),
    faults: z
      .array(
        z
          .object({
            atAuction: auctionNumber,
            set: FaultsBody.describe('the fault set from this auction on (as POST /_sim/faults; {} clears)'),
          })
          .strict(),
      )
      .optional()
      .describe('the fault set replaced at the start of each named auction, ascending'),
  })
  .strict();
