/**
 * A scenario file (JSON or YAML) read and checked, for code and mock mode
 * (MATCH_VENUE_MOCK_SCENARIO). Node only; the file system and the `yaml` package are loaded when
 * called, so the simulator's in-process and msw uses never load them.
 */
import { checkScenario, ScenarioError } from './check.js';
import type { ScenarioDocument } from './schema.js';

/**
 * The scenario document in `file`, checked (a ScenarioError names the file, the path and the rule);
 * pass it as `createSimulator({ scenario })`.
 */
export async function loadScenario(file: string): Promise<ScenarioDocument> {
  let text: string;
  try {
    const { readFile } = await import('node:fs/promises');
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new ScenarioError('', `cannot be read (${err instanceof Error ? err.message : err})`, file);
  }
  const { parse } = await import('yaml');
  return scenarioFromText(text, file, parse);
}

/** Parses (YAML 1.2 reads every JSON document as JSON does) and checks; the document as written. */
export function scenarioFromText(
  text: string,
  file: string,
  parse: (text: string) => unknown,
): ScenarioDocument {
  let value: unknown;
  try {
    value = parse(text);
  } catch (err) {
    throw new ScenarioError(
      '',
      `is neither JSON nor YAML: ${err instanceof Error ? err.message : err}`,
      file,
    );
  }
  checkScenario(value, file);
  return value as ScenarioDocument;
}
