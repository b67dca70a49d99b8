/**
 * The one loader of a market file, for `--market <preset|file>` (the CLI awaits it),
 * MATCH_VENUE_MOCK_MARKET and code: a preset name, or a JSON or YAML file of a market configuration. Node only (it reads a file); YAML is parsed by the `yaml` package, loaded
 * only for a YAML file, so the simulator's in-process and msw uses never load it.
 */

import { MARKET_PRESETS, type MarketConfig, MarketConfigError, resolveMarket } from './config.js';
import { ConfigTextError, isJsonFile, parseConfigText, type YamlParse } from './config-text.js';

/** The market a preset name or a file names, checked (MarketConfigError names the file and path). */
export async function loadMarket(presetOrFile: string): Promise<MarketConfig> {
  if (Object.hasOwn(MARKET_PRESETS, presetOrFile)) return resolveMarket(presetOrFile);
  let text: string;
  try {
    // Loaded here, not at the top: the simulator's entry also runs where there is no file system.
    const { readFile } = await import('node:fs/promises');
    text = await readFile(presetOrFile, 'utf8');
  } catch (err) {
    throw unreadable(presetOrFile, err);
  }
  const yaml = isJsonFile(presetOrFile, text) ? undefined : (await import('yaml')).parse;
  return marketFromText(text, presetOrFile, yaml);
}

/** A file that is neither a preset nor readable, named with the presets. */
function unreadable(presetOrFile: string, err: unknown): MarketConfigError {
  const why = err instanceof Error ? err.message : String(err);
  return new MarketConfigError(
    `"${presetOrFile}" is neither a preset (${Object.keys(MARKET_PRESETS).join(', ')}) nor a readable file (${why})`,
  );
}

/** Parses by the file's kind (config-text.ts) and checks; a mistake names the file. */
function marketFromText(text: string, file: string, yaml: YamlParse | undefined): MarketConfig {
  let value: unknown;
  try {
    value = parseConfigText(file, text, yaml);
  } catch (err) {
    if (err instanceof ConfigTextError) throw new MarketConfigError(`${file} ${err.reason}`);
    throw err;
  }
  return resolveMarket(value, file);
}
