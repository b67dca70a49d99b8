/**
 * The CLI's `--market <preset|file>`: the same reading as load.ts, synchronous, because the CLI is
 * built as a script without top-level await. Node only; the CLI alone imports this file.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { MARKET_PRESETS, type MarketConfig, MarketConfigError, resolveMarket } from './config.js';

/** The market a preset name or a JSON/YAML file names, checked (MarketConfigError names the path). */
export function loadMarketSync(presetOrFile: string): MarketConfig {
  if (Object.hasOwn(MARKET_PRESETS, presetOrFile)) return resolveMarket(presetOrFile);
  let text: string;
  try {
    text = readFileSync(presetOrFile, 'utf8');
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new MarketConfigError(
      `"${presetOrFile}" is neither a preset (${Object.keys(MARKET_PRESETS).join(', ')}) nor a readable file (${why})`,
    );
  }
  let value: unknown;
  try {
    // YAML 1.2 reads every JSON document as JSON does.
    value = parse(text);
  } catch (err) {
    throw new MarketConfigError(
      `${presetOrFile} is neither JSON nor YAML: ${err instanceof Error ? err.message : err}`,
    );
  }
  return resolveMarket(value, presetOrFile);
}
