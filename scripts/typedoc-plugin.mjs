// Local TypeDoc plugin (typedoc.json "plugin"): sorts the main entry's exports into the pages a
// reader looks for (Client, Resources, Errors, Money, Streaming, API data) and the webhooks entry's
// test signers into Testing, by the file each export is declared in, so the source carries no
// per-declaration @category tag to keep in step; and hides ClientCore, the request plumbing that
// MatchVenue extends, which is no export of the package.
import { relative, sep } from 'node:path';
import { Comment, CommentTag, Converter, ReflectionKind } from 'typedoc';

/** [path prefix under src/, category]: the first match wins. */
const BY_FILE = [
  ['core/money.ts', 'Money'],
  ['core/error.ts', 'Errors'],
  ['core/base-error.ts', 'Errors'],
  ['core/validation-error.ts', 'Errors'],
  ['generated/errors.ts', 'Errors'],
  ['generated/models.ts', 'API data'],
  ['resources/', 'Resources'],
  ['core/resolve-unknown.ts', 'Resources'],
  ['stream/', 'Streaming'],
  ['contract/ws-', 'Streaming'],
  ['webhooks/testing/', 'Testing'],
  ['webhooks/', 'Webhooks'],
  ['testing/', 'Testing'],
  ['simulator/', 'Testing'],
  ['', 'Client'],
];

/** Any export named …Error is an error class, wherever it is declared (InvalidApiKeyError, …). */
function categoryOf(file, name) {
  if (/Error$/.test(name)) return 'Errors';
  const rel = relative('src', file).split(sep).join('/');
  return BY_FILE.find(([prefix]) => rel.startsWith(prefix))?.[1] ?? 'Client';
}

/** @param {import('typedoc').Application} app */
export function load(app) {
  app.converter.on(Converter.EVENT_CREATE_DECLARATION, (context, reflection) => {
    // Only the entries' own exports: the main entry and match-venue/webhooks get categories.
    const module = reflection.parent;
    if (!module?.kindOf(ReflectionKind.Module)) return;
    if (module.name !== 'match-venue' && module.name !== 'match-venue/webhooks') return;
    const file = context.getSymbolFromReflection(reflection)?.declarations?.[0]?.getSourceFile().fileName;
    if (file === undefined) return;
    reflection.comment ??= new Comment();
    if (reflection.comment.getTag('@category')) return;
    const category = categoryOf(relative(process.cwd(), file), reflection.name);
    reflection.comment.blockTags.push(new CommentTag('@category', [{ kind: 'text', text: category }]));
  });

  // After TypeDoc's own resolve-end work (inheritance, hierarchy), which runs at priority 0.
  app.converter.on(
    Converter.EVENT_RESOLVE_END,
    (context) => {
      for (const cls of context.project.getReflectionsByKind(ReflectionKind.Class)) {
        const hidden = (type) => type.type === 'reference' && type.name === 'ClientCore';
        if (!cls.extendedTypes?.some(hidden)) continue;
        cls.extendedTypes = cls.extendedTypes.filter((type) => !hidden(type));
        if (cls.extendedTypes.length === 0) cls.extendedTypes = undefined;
        cls.typeHierarchy = undefined;
        // Its members read as MatchVenue's own, not "Inherited from ClientCore".
        for (const child of cls.children ?? []) {
          const accessors = [child.getSignature, child.setSignature].filter(Boolean);
          for (const part of [child, ...(child.signatures ?? []), ...accessors]) {
            part.inheritedFrom = undefined;
            part.overwrites = undefined;
          }
        }
      }
    },
    -1000,
  );
}
