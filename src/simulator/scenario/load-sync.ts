/**
 * The CLI's `--scenario <file>`: load.ts's reading, synchronous (the CLI is built as a script
 * without top-level await). Node only; the CLI alone imports this file.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { ScenarioError } from './check.js';
import { scenarioFromText } from './load.js';
import type { ScenarioDocument } from './schema.js';

/** The scenario document in `file`, checked (a ScenarioError names the file, the path and the rule). */
export function loadScenarioSync(file: string): ScenarioDocument {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ScenarioError('', `cannot be read (${err instanceof Error ? err.message : err})`, file);
  }
  return scenarioFromText(text, file, parse);
}
