/**
 * The one loader of a scenario file (JSON or YAML), read and checked, for `--scenario` (the CLI
 * awaits it), code and mock mode (MATCH_VENUE_MOCK_SCENARIO). Node only; the file system and the `yaml` package are loaded when
 * called (the package only for a YAML file), so the simulator's in-process and msw uses never load them.
 */
import { ConfigTextError, isJsonFile, parseConfigText, type YamlParse } from '../market/config-text.js';
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
  const yaml = isJsonFile(file, text) ? undefined : (await import('yaml')).parse;
  return scenarioFromText(text, file, yaml);
}

/** Parses by the file's kind (market/config-text.ts) and checks; the document as written. */
function scenarioFromText(text: string, file: string, yaml: YamlParse | undefined): ScenarioDocument {
  let value: unknown;
  try {
    value = parseConfigText(file, text, yaml);
  } catch (err) {
    if (err instanceof ConfigTextError) throw new ScenarioError('', err.reason, file);
    throw err;
  }
  checkScenario(value, file);
  return value as ScenarioDocument;
}
