/**
 * The fuzz driver's scenario family, in process: mutations of examples/scenarios/ (written as
 * JSON or YAML, or the example's own text broken) loaded through the public loader
 * (`loadScenario(file)`), or handed to `createSimulator({scenario})` as an object. A document is
 * either refused with a ScenarioError or accepted, and a simulator built from an accepted one
 * survives a few clears. Each case is timed (never interrupted): over `slowMs` it is flagged.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { seededRandom } from './chaos/support.js';
import { documentText, GENERIC_KINDS, genericMutation, hostileLeaf, setAt, unknownKey } from './fuzz-doc.js';
import {
  type FamilyReport,
  newFamilyReport,
  note,
  type SimulatorModule,
  watchingCrashes,
} from './fuzz-family.js';
import { Pick } from './fuzz-pick.js';

export interface ScenarioFamilyOptions {
  cases: number;
  seed: number;
  timeoutMs: number;
  deadline: number;
  /** A case (load, build, clears) longer than this is flagged slow. Default 2,000 ms. */
  slowMs?: number;
}

interface Example {
  name: string;
  text: string;
  doc: Record<string, unknown>;
}

const EXAMPLES = new URL('../examples/scenarios/', import.meta.url);

function examples(): Example[] {
  return readdirSync(EXAMPLES)
    .filter((n) => /\.(ya?ml|json)$/.test(n))
    .sort()
    .map((name) => {
      const text = readFileSync(new URL(name, EXAMPLES), 'utf8');
      return { name, text, doc: parse(text) as Record<string, unknown> };
    });
}

/** Scenario-specific changes: phases and faults out of order, odd entity names, clock, version. */
const TARGETED_KINDS = 7;

/** Clock settings at and past their edges: each alone, the others left at their defaults. */
const CLOCK_EDGES: [string, unknown][] = [
  ['cycleMs', 1],
  ['lockMs', 10_000],
  ['settleMs', 10_000],
  ['cycleMs', 2 ** 53 - 1],
  ['lockMs', 2 ** 53 - 1],
  ['startTime', 8.64e15],
  ['startTime', 8.64e15 + 1],
  ['startTime', '+275760-09-13T00:00:00Z'],
  ['startTime', '2026-13-45T00:00:00Z'],
  ['startTime', '2026-01-05T09:00:00+99:00'],
  ['mode', 'real'],
  ['mode', 'fast'],
];

function targeted(doc: Record<string, unknown>, p: Pick, kind?: number, variant?: number): [string, unknown] {
  const phases = (doc.phases as unknown[] | undefined) ?? [];
  switch (kind ?? p.int(TARGETED_KINDS)) {
    case 0: {
      const name = p.one([
        '__proto__',
        'constructor',
        'toString',
        'hasOwnProperty',
        'burner',
        'noaccount',
        'A',
        'x',
        'a'.repeat(40),
        'house',
      ]);
      const [what, value] = p.chance(0.5)
        ? hostileLeaf(p)
        : ['balances', { wallet: '1.00', venueBalance: '2.00' }];
      return [`entity ${name} = ${what}`, setAt(doc, ['entities', name], value)];
    }
    case 1: {
      const i = p.int(phases.length + 1);
      const [what, value] = p.one<[string, unknown]>([
        ['fromAuction 1', { fromAuction: 1, market: 'calm' }],
        ['fromAuction 0', { fromAuction: 0, market: 'busy' }],
        ['fromAuction 2^53-1', { fromAuction: 2 ** 53 - 1, market: null }],
        ['unknown preset', { fromAuction: 2, market: p.one(['frantic', '__proto__', 'constructor', '']) }],
        [
          'preset with hostile override',
          {
            fromAuction: 2,
            market: {
              preset: 'busy',
              noise: { [p.one(['count', 'activity', 'size', 'fee', 'postFill'])]: hostileLeaf(p)[1] },
            },
          },
        ],
      ]);
      return [`phases[${i}] = ${what}`, setAt(doc, ['phases', i], value)];
    }
    case 2: {
      const at = p.one([1, 1, 2, 0, -1, 2 ** 53 - 1, 1.5]);
      const [what, set] = p.one<[string, unknown]>([
        ['errorRate 2', { errorRate: 2 }],
        ['unknown fault', { [unknownKey(p)]: 1 }],
        ['hostile latency', { latencyMs: hostileLeaf(p)[1] }],
        ['dropResponse', { dropResponse: p.one([1, -1, 1e308, '2']) }],
        ['all at once', { errorRate: 0.5, latencyMs: 10, dropResponse: 1, failSettlement: 1 }],
      ]);
      const i = p.int(3);
      return [`faults[${i}] at ${at} = ${what}`, setAt(doc, ['faults', i], { atAuction: at, set })];
    }
    case 3: {
      const [field, value] =
        variant !== undefined
          ? (CLOCK_EDGES[variant % CLOCK_EDGES.length] as [string, unknown])
          : p.chance(0.5)
            ? p.one(CLOCK_EDGES)
            : [
                p.one(['mode', 'startTime', 'cycleMs', 'lockMs', 'settleMs']),
                p.one<unknown>(['', 'now', -1, 0, 1.5, null]),
              ];
      return [`clock.${field} = ${JSON.stringify(value)}`, setAt(doc, ['clock', field], value)];
    }
    case 4: {
      const value = p.one<unknown>([0, 2, '1', 1.5, null, -1]);
      return [`version = ${JSON.stringify(value)}`, setAt(doc, ['version'], value)];
    }
    case 5: {
      const value = p.one<unknown>([-1, 1.5, 2 ** 53 - 1, 2 ** 53 + 2, '7', null, 1e308]);
      return [`seed = ${JSON.stringify(value)}`, setAt(doc, ['seed'], value)];
    }
    default:
      return [
        p.one(['root is a list', 'root is text', 'root is null']),
        p.one<unknown>([[doc], 'scenario', null]),
      ];
  }
}

/** The example's own text, broken as a file can be: cut, junk inserted, YAML's own hazards. */
const BROKEN_TEXTS = 12;

function brokenText(text: string, p: Pick, variant?: number): [string, string] {
  const cut = p.int(text.length + 1);
  const variants: [string, string][] = [
    [`cut at ${cut}`, text.slice(0, cut)],
    [`junk at ${cut}`, `${text.slice(0, cut)}${p.text(4)}${text.slice(cut)}`],
    ['a BOM and CRLF', `\ufeff${text.replace(/\n/g, '\r\n')}`],
    ['a tab indent', text.replace(/\n {2}/, '\n\t')],
    ['a duplicate key', `${text}\nversion: 1\n`],
    [
      'an alias bomb',
      `a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n${text}`,
    ],
    ['an unknown tag', `${text}\nextra: !!js/function 'function () {}'\n`],
    [
      'a merge key',
      `base: &base { wallet: '1.00' }\n${text.replace('entities:', 'entities:\n  merged: { <<: *base }')}`,
    ],
    ['a NUL byte', `${text.slice(0, cut)}\u0000${text.slice(cut)}`],
    ['a long line', `description: ${'d'.repeat(200_000)}\n${text.replace(/^description:.*$/m, '')}`],
    ['empty', ''],
    ['a JSON number', '1e400'],
  ];
  return variant === undefined ? p.one(variants) : (variants[variant % variants.length] as [string, string]);
}

interface ScenarioCase {
  label: string;
  /** Written to a file of this name and loaded with loadScenario; absent: `object` goes straight in. */
  file?: { name: string; text: string };
  object?: unknown;
}

export function scenarioCase(sources: readonly Example[], seed: number, index: number): ScenarioCase {
  const p = new Pick(seededRandom((seed * 0x27d4eb2d) ^ (index * 0x9e3779b1) ^ 0x5ce7a));
  const source = sources[index % sources.length] as Example;
  // The first case of each example: as shipped, which must load and run.
  if (index < sources.length)
    return { label: `${source.name} as shipped`, file: { name: source.name, text: source.text } };
  const ext = source.name.replace(/^.*\./, '');
  // Then each kind of change in turn, and each clock edge, so that a short run covers them all.
  const early = index - sources.length;
  const broken = early - TARGETED_KINDS - GENERIC_KINDS - CLOCK_EDGES.length;
  if (broken >= 0 && broken < BROKEN_TEXTS) {
    const [label, text] = brokenText(source.text, p, broken);
    return { label: `${source.name}: ${label}`, file: { name: `case-${index}.${ext}`, text } };
  }
  const [what, mutated] =
    early < TARGETED_KINDS
      ? targeted(source.doc, p, early)
      : early < TARGETED_KINDS + GENERIC_KINDS
        ? genericMutation(source.doc, p, [], early - TARGETED_KINDS)
        : early < TARGETED_KINDS + GENERIC_KINDS + CLOCK_EDGES.length
          ? targeted(source.doc, p, 3, early - TARGETED_KINDS - GENERIC_KINDS)
          : p.chance(0.15)
            ? [undefined, undefined]
            : p.chance(0.5)
              ? targeted(source.doc, p)
              : genericMutation(source.doc, p);
  if (what === undefined) {
    const [label, text] = brokenText(source.text, p);
    return { label: `${source.name}: ${label}`, file: { name: `case-${index}.${ext}`, text } };
  }
  const value: unknown = JSON.parse(documentText(mutated));
  const label = `${source.name}: ${what}`;
  const as = p.int(3);
  if (as === 0) return { label: `${label} (object)`, object: value };
  const json = as === 1;
  const text = json ? JSON.stringify(value, null, 2) : stringify(value);
  return {
    label: `${label} (${json ? 'JSON' : 'YAML'})`,
    file: { name: `case-${index}.${json ? 'json' : 'yaml'}`, text },
  };
}

export async function runScenarioFamily(
  mod: SimulatorModule,
  o: ScenarioFamilyOptions,
): Promise<FamilyReport> {
  const r = newFamilyReport();
  const started = Date.now();
  const slowMs = o.slowMs ?? 2_000;
  const logged: string[] = [];
  const logger = {
    info: () => undefined,
    error: (message: string, err?: unknown) => logged.push(`${message}: ${String(err).slice(0, 200)}`),
  };
  const sources = examples();
  const dir = mkdtempSync(join(tmpdir(), 'match-venue-fuzz-'));
  // A load that never settles is reported, not waited for; the timer is cleared either way.
  const settled = <T>(promise: Promise<T>): Promise<T | 'stalled'> => {
    let timer: NodeJS.Timeout | undefined;
    const stall = new Promise<'stalled'>((done) => {
      timer = setTimeout(() => done('stalled'), o.timeoutMs);
    });
    return Promise.race([promise, stall]).finally(() => clearTimeout(timer));
  };
  try {
    await watchingCrashes(r, async () => {
      for (let index = 0; index < o.cases; index++) {
        if (Date.now() > o.deadline) {
          r.truncated = true;
          break;
        }
        const c = scenarioCase(sources, o.seed, index);
        const at = `${index} ${c.label}`;
        r.sent++;
        const t0 = performance.now();
        let scenario: unknown = c.object;
        let stage = 'load';
        try {
          if (c.file) {
            const file = join(dir, c.file.name);
            writeFileSync(file, c.file.text);
            const loaded = await settled(mod.loadScenario(file));
            rmSync(file, { force: true });
            if (loaded === 'stalled') {
              note(r, 'stalled', `${at} -> loadScenario did not settle in ${o.timeoutMs} ms`);
              continue;
            }
            scenario = loaded;
          }
          stage = 'create';
          const sim = mod.createSimulator({
            scenario: scenario as never,
            logger,
            fetch: async () => new Response(null),
          });
          r.accepted++;
          stage = 'clear';
          try {
            for (let n = 0; n < 3; n++) sim.clearAuction({ settle: n % 2 === 0 });
            stage = 'snapshot';
            // Every snapshot the simulator makes restores, one built from a scenario included.
            sim.restore(JSON.parse(JSON.stringify(sim.snapshot())));
          } catch (err) {
            note(
              r,
              'laterFailures',
              `${at} -> ${stage === 'clear' ? 'clearAuction' : 'restoring its own snapshot'} threw ${String(err)}`,
            );
          } finally {
            await sim.close();
          }
        } catch (err) {
          if ((stage === 'load' || stage === 'create') && err instanceof mod.ScenarioError) {
            r.refused++;
            if (!err.rule) note(r, 'badRefusals', `${at} -> a ScenarioError without a rule: ${err.message}`);
          } else
            note(
              r,
              'unexpectedErrors',
              `${at} -> ${stage}: ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}`,
            );
        }
        const ms = performance.now() - t0;
        if (ms > slowMs) note(r, 'slow', `${at} -> ${Math.round(ms)} ms`);
      }
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  r.loggedErrors = logged.length;
  if (logged.length) r.examples.loggedErrors = logged.slice(0, 5);
  r.elapsedMs = Date.now() - started;
  return r;
}
