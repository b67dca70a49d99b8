/**
 * The fault presets: named trading failures the generic faults cannot express (docs/MARKET.md,
 * "Fault presets"). Their names and what they do, and the part of their state kept here (the
 * ticket endpoint's draw). The socket side of them is ws/fault-presets.ts.
 */
import { z } from 'zod';
import { seededRandom } from './ids.js';

/** The name of a fault preset (docs/MARKET.md, "Fault presets"). */
export type PresetName =
  | 'fill-event-lost'
  | 'ack-after-event'
  | 'going-away'
  | 'ticket-reused'
  | 'settlement-slow';

/** Each preset, with the line `--help` prints for it (docs/MARKET.md says more). */
export const FAULT_PRESETS: Readonly<Record<PresetName, string>> = {
  'fill-event-lost': "a fill's account order.updated is lost in transit (seq consumed, not sent)",
  'ack-after-event': "a place's REST answer is held until its order.accepted event was written",
  'going-away':
    'the first placement of each auction closes every socket 1001; the next upgrade is refused 401',
  'ticket-reused': 'one ticket request (seeded: the 2nd to 4th) answers the previous ticket again',
  'settlement-slow': 'each auction settles a whole cycle after its clear, with the next clear',
};

/** Every preset name, in the order `--help` and docs/MARKET.md list them. */
export const PRESET_NAMES = Object.keys(FAULT_PRESETS) as [PresetName, ...PresetName[]];

/** A list of preset names: each known, none twice (the 400 names the bad one and the valid list). */
export const PresetsBody = z
  .array(
    z.enum(PRESET_NAMES, {
      error: (issue) => `unknown preset ${JSON.stringify(issue.input)}; valid: ${PRESET_NAMES.join(', ')}`,
    }),
  )
  .refine((names) => new Set(names).size === names.length, { error: 'a preset is named twice' })
  .describe(`named trading failures (docs/MARKET.md, Fault presets): ${PRESET_NAMES.join(', ')}`);

/** The ticket request (1-based, since the preset was set) that answers the previous ticket again. */
export function ticketReuseAt(seed: number): number {
  // Its own stream of the seed: the error-rate and settlement draws stay as they were.
  return 2 + Math.floor(seededRandom((seed ^ 0x7e5e7ed) >>> 0)() * 3);
}

/**
 * `ticket-reused`: counts ticket requests from the moment the fault set names the preset, and at the
 * seeded one answers the ticket issued just before, already presented by a client that connected.
 */
export class TicketReuse {
  private requests = 0;
  private last: { ticket: string; expiresAt: string } | undefined;
  private readonly at: number;

  constructor(seed: number) {
    this.at = ticketReuseAt(seed);
  }

  /** The answer to this ticket request: `issue()`'s, or once the previous one again. */
  async answer(
    issue: () => Promise<{ ticket: string; expiresAt: string }>,
  ): Promise<{ ticket: string; expiresAt: string }> {
    this.requests += 1;
    if (this.requests === this.at && this.last) return this.last;
    this.last = await issue();
    return this.last;
  }
}
