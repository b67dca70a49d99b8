// Lists what each published entry exports, read from its source with the TypeScript compiler (the
// names a user can import, as the checker resolves every `export *` and alias), for the test that
// pins the public API (test/types/public-api.test.ts) and for measuring it.
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** Each published subpath and the source file it is built from (tsup.config.ts's entries). */
export const ENTRIES = {
  'match-venue': 'src/index.ts',
  'match-venue/simulator': 'src/simulator/index.ts',
  'match-venue/testing': 'src/testing/index.ts',
  'match-venue/msw': 'src/testing/msw.ts',
  'match-venue/webhooks': 'src/webhooks/index.ts',
  'match-venue/webhooks/testing': 'src/webhooks/testing/index.ts',
} as const;

export type EntryName = keyof typeof ENTRIES;

/** One entry's exported names, sorted, and those of them that exist at run time (not types only). */
export interface EntryExports {
  names: string[];
  values: string[];
}

/** The exports of every entry, from one program over all their sources. */
export function listExports(): Record<EntryName, EntryExports> {
  const files = Object.values(ENTRIES).map((file) => `${root}${file}`);
  const config = ts.getParsedCommandLineOfConfigFile(
    `${root}tsconfig.json`,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error('tsconfig.json could not be read');
  const program = ts.createProgram(files, { ...config.options, noEmit: true });
  const checker = program.getTypeChecker();
  const out = {} as Record<EntryName, EntryExports>;
  for (const [entry, file] of Object.entries(ENTRIES) as [EntryName, string][]) {
    const source = program.getSourceFile(`${root}${file}`);
    if (!source) throw new Error(`${file}: not found`);
    const module = checker.getSymbolAtLocation(source);
    const exports = module ? checker.getExportsOfModule(module) : [];
    const names: string[] = [];
    const values: string[] = [];
    for (const symbol of exports) {
      names.push(symbol.name);
      if (isValue(checker, symbol)) values.push(symbol.name);
    }
    out[entry] = { names: names.sort(), values: values.sort() };
  }
  return out;
}

/** Whether an export has a run-time value: not `export type`, and resolving to something that exists. */
function isValue(checker: ts.TypeChecker, symbol: ts.Symbol): boolean {
  const typeOnly = symbol.declarations?.some((d) => ts.isTypeOnlyImportOrExportDeclaration(d)) ?? false;
  if (typeOnly) return false;
  const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  return (target.flags & ts.SymbolFlags.Value) !== 0;
}
