import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

export const SRC = resolve(import.meta.dirname, '../../src');

/** One import of a source file: the file it is in, the module it names, and that module's file. */
export interface Import {
  from: string;
  specifier: string;
  /** The source file it resolves to, relative to src/; undefined for a package or node: module. */
  to: string | undefined;
  typeOnly: boolean;
}

export function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      out.push(...sourceFiles(path));
    } else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) {
      out.push(path);
    }
  }
  return out;
}

function resolveRelative(fromFile: string, specifier: string): string | undefined {
  const base = resolve(dirname(fromFile), specifier.replace(/\.js$/, ''));
  for (const candidate of [
    `${base}.ts`,
    `${base}.tsx`,
    join(base, 'index.ts'),
    join(base, 'index.tsx'),
  ]) {
    if (existsSync(candidate)) {
      return relative(SRC, candidate);
    }
  }
  return undefined;
}

// Static imports and re-exports (`import … from`, `export … from`, `import '…'`) and dynamic
// `import('…')`; comments and strings that merely look like one are rare enough in src/ to ignore.
const IMPORT =
  /(?:^|\n)\s*(import|export)\s+(type\s+)?[^'";]*?from\s+'([^']+)'|import\(\s*'([^']+)'\s*\)/g;

/** Every import of every source file under src/. */
export function imports(): Import[] {
  const out: Import[] = [];
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(IMPORT)) {
      const specifier = m[3] ?? m[4] ?? '';
      out.push({
        from: relative(SRC, file),
        specifier,
        to: specifier.startsWith('.') ? resolveRelative(file, specifier) : undefined,
        typeOnly: m[2] !== undefined,
      });
    }
  }
  return out;
}

/** The family folder a file of src/ belongs to (`resources/<family>/…`), common aside. */
export function familyOf(file: string | undefined): string | undefined {
  const m = /^resources\/([^/]+)\//.exec(file ?? '');
  return m?.[1] === 'common' ? undefined : m?.[1];
}

/** Which families each family imports from (a family's own files and common aside). */
export function familyEdges(all: readonly Import[]): Map<string, Set<string>> {
  const edges = new Map<string, Set<string>>();
  for (const i of all) {
    const a = familyOf(i.from);
    const b = familyOf(i.to);
    if (a !== undefined && b !== undefined && a !== b) {
      edges.set(a, (edges.get(a) ?? new Set()).add(b));
    }
  }
  return edges;
}

/**
 * The groups of families that reach one another through their imports: each group, sorted, holds
 * a cycle (two families importing each other, or a longer loop). Groups sorted by first member.
 */
export function familyCycles(all: readonly Import[]): string[][] {
  const edges = familyEdges(all);
  const reach = (start: string): Set<string> => {
    const seen = new Set<string>();
    const todo = [...(edges.get(start) ?? [])];
    for (let next = todo.pop(); next !== undefined; next = todo.pop()) {
      if (!seen.has(next)) {
        seen.add(next);
        todo.push(...(edges.get(next) ?? []));
      }
    }
    return seen;
  };
  const reached = new Map([...edges.keys()].map((f) => [f, reach(f)]));
  const groups = new Map<string, string[]>();
  for (const [family, fromIt] of reached) {
    const group = [family, ...[...fromIt].filter((other) => reached.get(other)?.has(family))];
    if (group.length > 1) {
      const sorted = [...new Set(group)].sort();
      groups.set(sorted.join(), sorted);
    }
  }
  return [...groups.values()].sort((a, b) => (a[0] ?? '').localeCompare(b[0] ?? ''));
}
