// The figures of the house issue 36 set out to lower, read from src/ as it is: import lines that
// cross from one family folder to another, the families that import each other round in a cycle,
// imports of a family folder from src/web, files over 300 and 400 lines, and functions over 60.
//
//   npm run house            (tsx scripts/house.ts)
//
// A rule the tests hold (test/architecture) fails a change; these are the numbers around them, to
// compare two versions by.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import ts from 'typescript';
import {
  familyCycles,
  familyEdges,
  familyOf,
  imports,
  SRC,
  sourceFiles,
} from '../test/architecture/imports';

const LONG_FILE = 300;
const TOO_LONG_FILE = 400;
const LONG_FUNCTION = 60;

type FunctionLike =
  | ts.FunctionDeclaration
  | ts.MethodDeclaration
  | ts.ArrowFunction
  | ts.FunctionExpression
  | ts.ConstructorDeclaration
  | ts.GetAccessorDeclaration;

const isFunctionLike = (n: ts.Node): n is FunctionLike =>
  ts.isFunctionDeclaration(n) ||
  ts.isMethodDeclaration(n) ||
  ts.isArrowFunction(n) ||
  ts.isFunctionExpression(n) ||
  ts.isConstructorDeclaration(n) ||
  ts.isGetAccessor(n);

function nameOf(n: FunctionLike): string {
  if (n.name !== undefined) {
    return n.name.getText();
  }
  return ts.isVariableDeclaration(n.parent) ? n.parent.name.getText() : '(anonymous)';
}

/** Every function of the file over LONG_FUNCTION lines: `path:line name` and its length. */
function longFunctions(file: string): [string, number][] {
  const text = readFileSync(file, 'utf8');
  const kind = file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const found: [string, number][] = [];
  const visit = (n: ts.Node) => {
    if (isFunctionLike(n)) {
      const from = source.getLineAndCharacterOfPosition(n.getStart()).line;
      const to = source.getLineAndCharacterOfPosition(n.getEnd()).line;
      if (to - from + 1 > LONG_FUNCTION) {
        found.push([`${relative(SRC, file)}:${from + 1} ${nameOf(n)}`, to - from + 1]);
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(source);
  return found;
}

const all = imports();
const crossing = all.filter((i) => {
  const from = familyOf(i.from);
  const to = familyOf(i.to);
  return from !== undefined && to !== undefined && from !== to;
});
const fromWeb = all.filter((i) => i.from.startsWith('web/') && familyOf(i.to) !== undefined);
// In-source tests (deliveries/pool.test.ts) are the tests' code, not the house's.
const files = sourceFiles(SRC).filter((f) => !f.endsWith('.test.ts'));
const lengths = files
  .map((f) => [relative(SRC, f), readFileSync(f, 'utf8').split('\n').length - 1] as const)
  .sort((a, b) => b[1] - a[1]);
const functions = files.flatMap(longFunctions).sort((a, b) => b[1] - a[1]);

const out = (line: string) => process.stdout.write(`${line}\n`);
out(`import lines crossing families: ${crossing.length}`);
const edges = familyEdges(all);
const mutual = [...edges].flatMap(([a, to]) =>
  [...to].filter((b) => a < b && edges.get(b)?.has(a)).map((b) => `${a} <-> ${b}`),
);
out(
  `families that import each other: ${mutual.length}${mutual.length ? ` (${mutual.join(', ')})` : ''}`,
);
out(`groups of families in a cycle: ${familyCycles(all).length}`);
out(`imports of a family folder from src/web: ${fromWeb.length}`);
out(`files over ${TOO_LONG_FILE} lines: ${lengths.filter(([, n]) => n > TOO_LONG_FILE).length}`);
out(`files over ${LONG_FILE} lines: ${lengths.filter(([, n]) => n > LONG_FILE).length}`);
for (const [file, n] of lengths.filter(([, n]) => n > LONG_FILE)) {
  out(`  ${n} ${file}`);
}
out(`functions over ${LONG_FUNCTION} lines: ${functions.length}`);
for (const [where, n] of functions) {
  out(`  ${n} ${where}`);
}
out(`src/: ${files.length} files, ${lengths.reduce((sum, [, n]) => sum + n, 0)} lines`);
