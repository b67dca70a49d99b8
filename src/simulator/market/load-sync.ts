/**
 * The CLI's `--market <preset|file>`: load.ts's reading, synchronous, because the CLI is built as a
 * script without top-level await. Node only; the CLI alone imports this file.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { MARKET_PRESETS, type MarketConfig, resolveMarket } from './config.js';
import { marketFromText, unreadable } from './load.js';

/** The market a preset name or a JSON/YAML file names, checked (MarketConfigError names the path). */
export function loadMarketSync(presetOrFile: string): MarketConfig {
  if (Object.hasOwn(MARKET_PRESETS, presetOrFile)) return resolveMarket(presetOrFile);
  let text: string;
  try {
    text = readFileSync(presetOrFile, 'utf8');
  } catch (err) {
    throw unreadable(presetOrFile, err);
  }
  return marketFromText(text, presetOrFile, parse);
}
