/**
 * `--market <preset|file>` and MATCH_VENUE_MOCK_MARKET: a preset name, or a JSON or YAML file of a
 * market configuration. Node only (it reads a file); YAML is parsed by the `yaml` package, loaded
 * only when a file is not JSON, so the simulator's in-process and msw uses never load it.
 */
import { MARKET_PRESETS, type MarketConfig, MarketConfigError, resolveMarket } from './config.js';

/** The market a preset name or a file names, checked (MarketConfigError names the file and path). */
export async function loadMarket(presetOrFile: string): Promise<MarketConfig> {
  if (Object.hasOwn(MARKET_PRESETS, presetOrFile)) return resolveMarket(presetOrFile);
  let text: string;
  try {
    // Loaded here, not at the top: the simulator's entry also runs where there is no file system.
    const { readFile } = await import('node:fs/promises');
    text = await readFile(presetOrFile, 'utf8');
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new MarketConfigError(
      `market: "${presetOrFile}" is neither a preset (${Object.keys(MARKET_PRESETS).join(', ')}) nor a readable file (${why})`,
    );
  }
  return resolveMarket(await parseConfigText(text, presetOrFile), presetOrFile);
}

/** JSON when it parses as JSON, else YAML; a file that is neither names itself and the parser's reason. */
export async function parseConfigText(text: string, file: string): Promise<unknown> {
  try {
    return JSON.parse(text);
  } catch {
    const { parse } = await import('yaml');
    try {
      return parse(text);
    } catch (err) {
      throw new MarketConfigError(
        `${file} is neither JSON nor YAML: ${err instanceof Error ? err.message : err}`,
      );
    }
  }
}
