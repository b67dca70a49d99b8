/** The probe's options and its report, as data (render.ts prints it). */
import type { ScenarioDocument } from '../scenario/types.js';
import type { ProbeKeyAssignment } from './keys.js';

/** What to probe a cassette with. */
export interface ProbeOptions {
  /** Paths expected to differ (`data.createdAt`, `**.ts`, `events.market`): see docs/FIDELITY.md. */
  ignore?: readonly string[];
  /** A scenario for the fresh simulator (its entities can stand for the recording's keys). */
  scenario?: ScenarioDocument;
  /** Key id -> entity name, for the recording's keys that do not name an entity. */
  as?: Readonly<Record<string, string>>;
}

/** One way the simulator departs from the recording. */
export interface ProbeDifference {
  /** The cassette line of the exchange, or of the connection's `open`. */
  line: number;
  /** `POST /v1/match/orders` (the recorded path), or `ws 1 (burner)` for a connection's events. */
  where: string;
  /**
   * `status` / `code`: the HTTP status or the venue code of an error body; `missing` / `extra`: a
   * field (or an event kind) recorded but not simulated, or simulated but not recorded; `type`: a
   * field of another JSON type; `order`: an event kind that came at another place.
   */
  kind: 'status' | 'code' | 'missing' | 'extra' | 'type' | 'order';
  /** What `--ignore` takes: `status`, `code`, a body path (`data.fill`), `events.<channel>.<event>`. */
  path: string;
  /** The recorded side: a status, a code, a JSON type (`string`, `object|null`), event positions (`#3`), or `-`. */
  recorded: string;
  /** The simulated side, as `recorded`. */
  simulated: string;
}

/** What {@link probeCassette} found: the differences left after the ignores, and how it mapped the recording. */
export interface ProbeReport {
  /** True when no difference is left after the ignores. */
  alike: boolean;
  /** REST attempts compared (those with a recorded response). */
  exchanges: number;
  /** Recorded stream events compared. */
  events: number;
  /** Every difference not ignored: the exchanges' in the order sent, then each connection's events. */
  differences: ProbeDifference[];
  /** Differences the ignore paths silenced. */
  ignored: number;
  /** The simulator's start (ISO 8601). */
  startTime: string;
  /** The entity standing for each key id of the recording. */
  keys: ProbeKeyAssignment[];
  /** Recorded ids the requests were rewritten with, recorded -> simulated. */
  ids: {
    /** The id in the recording. */
    recorded: string;
    /** The simulator's id sent in its place. */
    simulated: string;
  }[];
  /** What the probe could not compare, and why. */
  notes: string[];
}
