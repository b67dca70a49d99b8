/**
 * `match-venue-sim probe <cassette>`: the probe (src/simulator/probe/) from the command line. Its
 * own flags, parsed strictly; exit 0 when the simulator answered as recorded, 1 when it departed, 2
 * for a refused command line or a cassette (or scenario) that cannot be used.
 */
import { parseArgs } from 'node:util';
import { readCassette } from '../cassette/read.js';
import { probeCassette } from '../probe/probe.js';
import { renderProbeReport } from '../probe/render.js';
import { loadScenario } from '../scenario/load.js';

export const PROBE_USAGE = [
  'Usage: match-venue-sim probe <cassette> [options]',
  '',
  "Replays a cassette's requests (and stream subscriptions) against a fresh simulator, its clock set",
  'from the cassette, and reports each difference: status, venue code, response shape, event kinds',
  'and their order. Exit 0: alike; 1: differences; 2: a refused command line or an unusable cassette.',
  '',
  '      --json                   the report as one JSON object',
  '      --ignore <path>          expected to differ: data.createdAt, data.orders[].fill, **.ts,',
  '                               events.market (a path ignores its subtree; repeatable)',
  '      --scenario <file>        a JSON/YAML scenario for the fresh simulator (its entities, faults, clock)',
  '      --as <keyId>=<entity>    the entity standing for a recorded key id (repeatable; default: a key',
  '                               id naming an entity is that entity, others burner, minter, ... in turn)',
  '  -h, --help                   this text',
  '',
  'Proving your bot against the real sandbox: docs/FIDELITY.md.',
].join('\n');

interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
}

const stdio: Io = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
};

/** Runs the subcommand on `argv` (the words after `probe`); resolves the exit code. */
export async function runProbeCli(argv: readonly string[], io: Io = stdio): Promise<number> {
  const refuse = (message: string) => {
    io.err(`match-venue-sim probe: ${message}\nRun match-venue-sim probe --help for its flags.\n`);
    return 2;
  };
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (err) {
    return refuse(err instanceof Error ? err.message : String(err));
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.out(`${PROBE_USAGE}\n`);
    return 0;
  }
  if (positionals.length !== 1)
    return refuse(positionals.length === 0 ? 'name the cassette to probe' : 'takes one cassette');
  const as: Record<string, string> = {};
  for (const pair of values.as ?? []) {
    const eq = pair.indexOf('=');
    if (eq <= 0 || eq === pair.length - 1)
      return refuse(`--as takes <keyId>=<entity>, got ${JSON.stringify(pair)}`);
    as[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  try {
    const cassette = await readCassette(positionals[0] as string);
    const scenario = values.scenario === undefined ? undefined : await loadScenario(values.scenario);
    const report = await probeCassette(cassette, {
      ignore: values.ignore ?? [],
      as,
      ...(scenario ? { scenario } : {}),
    });
    io.out(values.json ? `${JSON.stringify(report, null, 2)}\n` : renderProbeReport(report));
    return report.alike ? 0 : 1;
  } catch (err) {
    // The cassette's and the scenario's errors name the file, the line or path, and the rule.
    io.err(`match-venue-sim probe: ${err instanceof Error ? err.message : String(err)}\n`);
    return 2;
  }
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      json: { type: 'boolean' },
      ignore: { type: 'string', multiple: true },
      scenario: { type: 'string' },
      as: { type: 'string', multiple: true },
      help: { type: 'boolean', short: 'h' },
    },
  });
}
