/**
 * The text of a configuration file (a market for `--market`, a scenario for `--scenario`) parsed by
 * its kind, for the synchronous and the asynchronous readers alike: JSON with JSON.parse, YAML with
 * the `yaml` package. YAML 1.2 reads JSON as well, but the yaml package took 4-6 s over a 0.57 MB
 * JSON scenario that JSON.parse reads in about 40 ms (issue 33), and its account of broken JSON
 * talks YAML. The caller hands the YAML parser in, so that the asynchronous reader loads the
 * package only for a YAML file (the simulator's in-process and msw uses never load it).
 */

/** The `yaml` package's `parse`. */
export type YamlParse = (text: string) => unknown;

/** A file that cannot be parsed as its kind; `reason` reads after the file's name. */
export class ConfigTextError extends Error {
  override name = 'ConfigTextError';
  constructor(readonly reason: string) {
    super(reason);
  }
}

/**
 * Whether `file` is JSON: by its name (`.json`; `.yaml` and `.yml` are YAML), else by its text (a
 * JSON document here is an object, so it starts with `{`).
 */
export function isJsonFile(file: string, text: string): boolean {
  if (/\.json$/i.test(file)) return true;
  if (/\.ya?ml$/i.test(file)) return false;
  return text.trimStart().startsWith('{');
}

/** Line and column (1-based) of a character offset, for a JSON error that names a position only. */
function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return `line ${line}, column ${offset - before.lastIndexOf('\n')}`;
}

/** The parsed document; a ConfigTextError says what is wrong, with the line and column. */
export function parseConfigText(file: string, text: string, yaml: YamlParse | undefined): unknown {
  if (isJsonFile(file, text)) {
    try {
      return JSON.parse(text);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      // Node 20 names a position; later versions name the line and column themselves.
      const at = /at position (\d+)/.exec(message);
      const where = at && !/line \d+/.test(message) ? ` (${lineColumn(text, Number(at[1]))})` : '';
      throw new ConfigTextError(`is not valid JSON: ${message}${where}`);
    }
  }
  if (!yaml) throw new Error('parseConfigText: a YAML file needs the yaml parser');
  try {
    return yaml(text);
  } catch (err) {
    throw new ConfigTextError(`is not valid YAML: ${err instanceof Error ? err.message : String(err)}`);
  }
}
