/** The CLI's flags: their table, the usage text drawn from it, and parsing with a clear refusal. */
import { parseArgs } from 'node:util';
import { FAULT_PRESETS, type PresetName, PresetsBody } from '../engine/fault-presets.js';
import { DEFAULT_EVENT_LOG_LINES, MAX_EVENT_LOG_LINES } from '../events/event-log.js';
import type { AccessOptions } from '../http/access.js';
import { MAX_RESTORE_BYTES } from '../http/body.js';
import { checkAllowedHosts, checkControlToken, checkCorsOrigin } from '../http/access-hosts.js';

/** Where the control token may also come from (a flag's value shows in `ps`). */
export const CONTROL_TOKEN_ENV = 'MATCH_VENUE_SIM_CONTROL_TOKEN';

interface Flag {
  readonly name: string;
  readonly short?: string;
  /** The value's placeholder; absent for a boolean flag. */
  readonly value?: string;
  /** The value may be left out (`--event-log` alone, or `--event-log 500`). */
  readonly optionalValue?: boolean;
  readonly help: string;
}

const FLAGS: readonly Flag[] = [
  { name: 'host', value: '<host>', help: 'interface to bind (default 127.0.0.1)' },
  { name: 'port', value: '<port>', help: 'port (default 4010; 0 picks a free one)' },
  {
    name: 'clock',
    value: 'real|manual',
    help: 'real: auctions run on the wall clock (default); manual: only /_sim/ moves time',
  },
  {
    name: 'start-time',
    value: '<ISO|ms>',
    help: 'the clock at start, e.g. 2026-01-01T00:00:00Z or epoch ms (default: now); fix it for replays',
  },
  { name: 'cycle-ms', value: '<ms>', help: 'auction cycle length (default 10000)' },
  { name: 'lock-ms', value: '<ms>', help: 'lock window at the end of each cycle (default 2000)' },
  { name: 'settle-ms', value: '<ms>', help: 'settlement delay after each clear (default 1000)' },
  { name: 'seed', value: '<n>', help: 'seed for fault draws (default 1)' },
  { name: 'ticket-ttl-ms', value: '<ms>', help: 'WebSocket ticket lifetime (default 30000)' },
  {
    name: 'allowed-hosts',
    value: '<a,b>',
    help: 'also answer these Host names (default: loopback names and the bound address only)',
  },
  {
    name: 'cors',
    value: '<origin>',
    help: 'let this one browser origin call in, with CORS headers (default: none)',
  },
  {
    name: 'control-token',
    value: '<token>',
    help:
      `x-sim-control-token /_sim/* requires (generated off loopback); a flag's value shows in the ` +
      `process list (ps), so prefer the environment variable ${CONTROL_TOKEN_ENV}`,
  },
  {
    name: 'allow-private-webhooks',
    help: 'off loopback, let webhooks reach loopback and private addresses (default: refused)',
  },
  {
    name: 'market',
    value: '<preset|file>',
    help: 'background participants: calm, busy, one-sided, or a JSON/YAML file (default: none)',
  },
  {
    name: 'scenario',
    value: '<file>',
    help: 'a JSON/YAML scenario: entities, market and faults by auction, clock, seed (flags win)',
  },
  {
    name: 'faults',
    value: '<preset,...>',
    help: 'fault presets in force from the start (and after a reset), listed below (default: none)',
  },
  {
    name: 'store',
    value: '<file>',
    help: 'SQLite order history beyond a 60 s window; restarting on the file resumes (needs better-sqlite3)',
  },
  {
    name: 'event-log',
    value: '[lines]',
    optionalValue: true,
    help: `turn on the event log (GET /_sim/log): a ring of this many lines (alone: ${DEFAULT_EVENT_LOG_LINES}; at most ${MAX_EVENT_LOG_LINES}), at most 64 MiB`,
  },
  {
    name: 'restore-limit-mb',
    value: '<n>',
    help: 'largest POST /_sim/restore body (a snapshot), 1 to 512 MiB (default 512; other bodies 1 MiB)',
  },
  { name: 'no-ui', help: 'do not serve the dashboard at /_sim/ui (default: served)' },
  {
    name: 'ui-clients',
    value: '<n>',
    help: 'dashboard pages streaming at once; the next gets 503 (default 100)',
  },
  { name: 'quiet', short: 'q', help: 'no request log (auction phases and errors are still logged)' },
  { name: 'json', help: 'startup info and every log line as one JSON object per line, no colour' },
  { name: 'version', short: 'v', help: 'print the package version and exit' },
  { name: 'help', short: 'h', help: 'this text' },
];

export const USAGE = [
  'Usage: match-venue-sim [options]',
  '       match-venue-sim probe <cassette> [options]   replay a recording here and report each difference (probe --help)',
  ...FLAGS.map((f) => {
    const names = `${f.short ? `-${f.short}, ` : '    '}--${f.name}${f.value ? ` ${f.value}` : ''}`;
    return `  ${names.padEnd(28)} ${f.help}`;
  }),
  '',
  'Fault presets (--faults a,b; POST /_sim/faults {"presets":[...]}; docs/MARKET.md, Fault presets):',
  ...Object.entries(FAULT_PRESETS).map(([name, help]) => `  ${name.padEnd(28)} ${help}`),
  '',
  'Log lines are stamped with the simulated clock ([sim <ISO>]); request durations are wall-clock ms.',
  'Colour only on a terminal; NO_COLOR turns it off, FORCE_COLOR on.',
].join('\n');

/** A refused command line: the message to print (exit code 2). */
export class UsageError extends Error {
  override name = 'UsageError';
}

export interface CliArgs {
  host: string;
  port: number;
  clock: 'real' | 'manual';
  /** Whether `--clock` was given (else a scenario's clock, if any, is used before `real`). */
  clockGiven: boolean;
  startTime?: number | string;
  cycleMs?: number;
  lockMs?: number;
  settleMs?: number;
  seed?: number;
  ticketTtlMs?: number;
  /** `--restore-limit-mb`, in bytes. */
  restoreLimitBytes?: number;
  /**
   * `--allowed-hosts` (canonicalised), `--cors`, and `--control-token` or else the environment
   * variable (never printed): the listen options of the same names, only those given.
   */
  access: AccessOptions;
  /** `--allow-private-webhooks`: listen's `allowPrivateWebhooks`. */
  allowPrivateWebhooks: boolean;
  /** `--market`: a preset name or a file (read by the CLI). */
  market?: string;
  /** `--faults`: the fault presets in force from the start. */
  faults?: PresetName[];
  /** `--scenario`: a scenario file (read by the CLI). */
  scenario?: string;
  /** `--store`: the SQLite file of the order history and checkpoints. */
  store?: string;
  /** `--event-log [lines]`: the simulator's `eventLog` (`true` without a number). */
  eventLog?: true | number;
  /** Serve the dashboard (`/_sim/ui`); `--no-ui` turns it off. */
  ui: boolean;
  /** `--ui-clients`: the listen option `uiClients`. */
  uiClients?: number;
  quiet: boolean;
  json: boolean;
  version: boolean;
  help: boolean;
}

/** Parses argv (without node and the script); throws UsageError naming the flag and its rule. */
export function parseCliArgs(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): CliArgs {
  const options = Object.fromEntries(
    FLAGS.map((f) => [
      f.name,
      { type: f.value ? ('string' as const) : ('boolean' as const), ...(f.short ? { short: f.short } : {}) },
    ]),
  );
  const { rest, bare } = takeBareFlags(argv);
  // Not strict: an unknown flag comes back as a token, to be named with its nearest valid flag.
  const { values, tokens } = parseArgs({ args: rest, options, strict: false, tokens: true });
  for (const token of tokens) {
    if (token.kind === 'positional')
      throw new UsageError(`unexpected argument ${JSON.stringify(token.value)}`);
    if (token.kind !== 'option') continue;
    const flag = FLAGS.find((f) => f.name === token.name || f.short === token.name);
    if (!flag) throw new UsageError(unknownFlag(token.rawName));
    if (flag.value && token.value === undefined)
      throw new UsageError(`${token.rawName} needs a value: ${flag.value}`);
    if (!flag.value && token.inlineValue) throw new UsageError(`${token.rawName} takes no value`);
  }
  const text = (name: string) => values[name] as string | undefined;
  const flag = (name: string) => values[name] === true;

  const clock = text('clock') ?? 'real';
  if (clock !== 'real' && clock !== 'manual') throw new UsageError('--clock must be real or manual');
  const port = integer('port', text('port'), 0) ?? 4010;
  if (port > 65535) throw new UsageError('--port must be at most 65535');
  const start = text('start-time');
  const args: CliArgs = {
    host: text('host') ?? '127.0.0.1',
    port,
    clock,
    clockGiven: text('clock') !== undefined,
    access: accessArgs(text('allowed-hosts'), text('cors'), text('control-token'), env),
    allowPrivateWebhooks: flag('allow-private-webhooks'),
    ui: !flag('no-ui'),
    quiet: flag('quiet'),
    json: flag('json'),
    version: flag('version'),
    help: flag('help'),
  };
  // Digits alone are epoch ms; anything else must be an ISO instant (checked by the simulator).
  if (start !== undefined) args.startTime = /^\d+$/.test(start) ? Number(start) : start;
  const market = text('market');
  if (market !== undefined) args.market = market;
  const scenario = text('scenario');
  if (scenario !== undefined) args.scenario = scenario;
  const faults = text('faults');
  if (faults !== undefined) args.faults = presetList(faults);
  const store = text('store');
  if (store !== undefined) args.store = store;
  const eventLog = text('event-log');
  if (eventLog !== undefined) args.eventLog = integerUpTo('event-log', eventLog, 1, MAX_EVENT_LOG_LINES);
  else if (bare.has('event-log')) args.eventLog = true;
  const numbers = [
    ['cycle-ms', 'cycleMs', 1],
    ['lock-ms', 'lockMs', 0],
    ['settle-ms', 'settleMs', 0],
    ['seed', 'seed', 0],
    ['ticket-ttl-ms', 'ticketTtlMs', 1],
    ['ui-clients', 'uiClients', 1],
  ] as const;
  for (const [name, key, min] of numbers) {
    const n = integer(name, text(name), min);
    if (n !== undefined) args[key] = n;
  }
  const restoreMiB = text('restore-limit-mb');
  // 512 MiB is the longest string JavaScript holds, less 24 bytes: the simulator's own maximum.
  if (restoreMiB !== undefined)
    args.restoreLimitBytes = Math.min(
      integerUpTo('restore-limit-mb', restoreMiB, 1, 512) * 1_048_576,
      MAX_RESTORE_BYTES,
    );
  return args;
}

/** The access flags, checked by the simulator's own rules under the flag's name. */
function accessArgs(
  hosts: string | undefined,
  cors: string | undefined,
  flagToken: string | undefined,
  env: NodeJS.ProcessEnv,
): AccessOptions {
  const out: { allowedHosts?: string[]; cors?: string; controlToken?: string } = {};
  // An empty variable is an unset one (`VAR= cmd`), not a token.
  const envToken = env[CONTROL_TOKEN_ENV] || undefined;
  try {
    if (hosts !== undefined) out.allowedHosts = checkAllowedHosts(hosts.split(','), '--allowed-hosts');
    if (cors !== undefined) out.cors = checkCorsOrigin(cors, '--cors');
    if (flagToken !== undefined) out.controlToken = checkControlToken(flagToken, '--control-token');
    else if (envToken !== undefined) out.controlToken = checkControlToken(envToken, CONTROL_TOKEN_ENV);
  } catch (err) {
    throw err instanceof RangeError ? new UsageError(err.message) : err;
  }
  return out;
}

/**
 * Takes out the flags whose value may be left out when they are given without one (at the end, or
 * before another flag; `-5` is a value, to be refused as one), so parseArgs sees only flags with values.
 */
function takeBareFlags(argv: readonly string[]): { rest: string[]; bare: Set<string> } {
  const rest: string[] = [];
  const bare = new Set<string>();
  argv.forEach((arg, i) => {
    const flag = FLAGS.find((f) => f.optionalValue && arg === `--${f.name}`);
    const next = argv[i + 1];
    if (flag && (next === undefined || (next.startsWith('-') && !/^-\d/.test(next)))) bare.add(flag.name);
    else rest.push(arg);
  });
  return { rest, bare };
}

/** `--faults`: names separated by commas, each a preset, by the rules of `POST /_sim/faults`. */
function presetList(value: string): PresetName[] {
  const r = PresetsBody.safeParse(value.split(',').map((name) => name.trim()));
  if (r.success) return r.data;
  throw new UsageError(`--faults: ${r.error.issues[0]?.message}`);
}

function integerUpTo(name: string, value: string, min: number, max: number): number {
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max)
    throw new UsageError(`--${name} must be an integer from ${min} to ${max}`);
  return Number(value);
}

function integer(name: string, value: string | undefined, min: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value)) || Number(value) < min)
    throw new UsageError(`--${name} must be an integer >= ${min}`);
  return Number(value);
}

function unknownFlag(rawName: string): string {
  const nearest = nearestFlag(rawName.replace(/^-+/, ''));
  return `unknown flag ${rawName}${nearest ? `; did you mean --${nearest}?` : ''}`;
}

/** The valid flag a typo most likely meant: a prefix of it, else the closest within a few edits. */
export function nearestFlag(name: string): string | undefined {
  const lower = name.toLowerCase();
  if (lower.length >= 2) {
    const prefixed = FLAGS.filter((f) => f.name.startsWith(lower));
    if (prefixed.length === 1) return prefixed[0]?.name;
  }
  let best: { name: string; distance: number } | undefined;
  for (const f of FLAGS) {
    const distance = editDistance(lower, f.name);
    if (!best || distance < best.distance) best = { name: f.name, distance };
  }
  // Beyond a third of the name's length the "suggestion" would be a guess.
  return best && best.distance <= Math.max(1, Math.floor(lower.length / 3)) ? best.name : undefined;
}

/** Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps. */
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number) => d[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        v = Math.min(v, at(i - 2, j - 2) + 1);
      (d[i] as number[])[j] = v;
    }
  }
  return at(a.length, b.length);
}
