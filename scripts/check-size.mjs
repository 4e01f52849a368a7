// `npm run size` (.ci/run runs it): the code stays in small pieces. Fails, listing each offender as
// `path:line  kind name  N lines`, when
//   - a file of src/ or sandbox/ (TypeScript, and the C sources and headers of the native helpers) is
//     over MAX_FILE_LINES lines, or
//   - a function of a TypeScript file there (a declaration, a method, a constructor, an accessor, an
//     arrow function, a function expression) is over MAX_FUNCTION_LINES lines, counted from its first
//     line to its last: the whole body, with its signature and any nested functions.
// C functions are not measured (no C parser here); their files are.
// Plain JavaScript with the TypeScript compiler API (a dependency already): it runs before any build.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const MAX_FILE_LINES = 300;
export const MAX_FUNCTION_LINES = 80;
export const ROOTS = ['src', 'sandbox'];
const EXTENSIONS = /\.(ts|c|h)$/;

/** Lines of a text: a final newline ends the last line, it starts none. */
const lineCount = (text) => (text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0));

/** What a function node is called in a report. */
function nameOf(node) {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text;
  if (node.name) return node.name.getText();
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (parent && ts.isPropertyAssignment(parent)) return parent.name.getText();
  if (parent && ts.isPropertyDeclaration(parent)) return parent.name.getText();
  if (parent && ts.isCallExpression(parent))
    return `(callback of ${parent.expression.getText().slice(0, 40)})`;
  return '(anonymous)';
}

const isFunction = (node) =>
  ts.isFunctionDeclaration(node) ||
  ts.isMethodDeclaration(node) ||
  ts.isConstructorDeclaration(node) ||
  ts.isGetAccessorDeclaration(node) ||
  ts.isSetAccessorDeclaration(node) ||
  ts.isArrowFunction(node) ||
  ts.isFunctionExpression(node);

/** The functions of one TypeScript source longer than `max` lines: { line, name, lines }. */
export function longFunctions(file, text, max = MAX_FUNCTION_LINES) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found = [];
  const visit = (node) => {
    if (isFunction(node) && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines > max) found.push({ line: first + 1, name: nameOf(node), lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Every offender under `roots` of the checkout `root`, sorted by path and line. */
export function offenders(root, roots = ROOTS) {
  const out = [];
  for (const dir of roots) {
    const entries = readdirSync(join(root, dir), { recursive: true, withFileTypes: true });
    for (const entry of entries) {
      if (!entry.isFile() || !EXTENSIONS.test(entry.name)) continue;
      const path = relative(root, join(entry.parentPath, entry.name));
      const text = readFileSync(join(root, path), 'utf8');
      const lines = lineCount(text);
      if (lines > MAX_FILE_LINES) out.push({ path, line: 1, kind: 'file', name: '', lines });
      if (!path.endsWith('.ts')) continue;
      for (const f of longFunctions(path, text)) out.push({ path, kind: 'function', ...f });
    }
  }
  return out.sort((a, b) => a.path.localeCompare(b.path) || a.line - b.line);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = dirname(dirname(fileURLToPath(import.meta.url)));
  const found = offenders(root);
  for (const o of found) {
    const limit = o.kind === 'file' ? MAX_FILE_LINES : MAX_FUNCTION_LINES;
    const what = o.kind === 'file' ? 'file' : `function ${o.name}`;
    console.log(`${o.path}:${o.line}  ${what}  ${o.lines} lines (limit ${limit})`);
  }
  if (found.length > 0) {
    console.log(
      `size: ${found.length} over the limits (files ≤ ${MAX_FILE_LINES} lines, functions ≤ ${MAX_FUNCTION_LINES}): split them`,
    );
    process.exit(1);
  }
  console.log(`size: ok (files ≤ ${MAX_FILE_LINES} lines, functions ≤ ${MAX_FUNCTION_LINES})`);
}
