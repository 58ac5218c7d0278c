// Lists the longest functions of the TypeScript sources by line count (declarations, methods, arrows and function
// expressions, getters, constructors). `node scripts/longest-functions.mjs [--top=N] [dir ...]`, default the top
// 10 over src/ and webview/. A function nested in another counts on its own and inside its parent: the list is
// about what a reader has to hold at once. Used for the closing notes of refactoring issues (before and after).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const args = process.argv.slice(2);
const top = Number(args.find((a) => a.startsWith('--top='))?.slice(6) ?? 10);
const dirs = args.filter((a) => !a.startsWith('--'));

function files(dir, out = []) {
  for (const n of readdirSync(dir)) {
    if (n === 'node_modules' || n.startsWith('.')) continue;
    const p = join(dir, n);
    if (statSync(p).isDirectory()) files(p, out);
    else if (/\.(ts|mts)$/.test(n) && !n.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** The name a reader would search for: the declared name, the method or property it is assigned to, else `(anonymous)`. */
function nameOf(node) {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text;
  if (node.name) return node.name.getText();
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const p = node.parent;
  if (p && ts.isVariableDeclaration(p) && ts.isIdentifier(p.name)) return p.name.text;
  if (p && ts.isPropertyAssignment(p)) return p.name.getText();
  if (p && ts.isPropertyDeclaration(p)) return p.name.getText();
  return '(anonymous)';
}

/** The enclosing class's name, for methods. */
function owner(node) {
  for (let p = node.parent; p; p = p.parent) if (ts.isClassLike(p)) return p.name?.text ?? '(class)';
  return undefined;
}

const out = [];
for (const file of (dirs.length ? dirs : ['src', 'webview']).flatMap((d) => files(d))) {
  const text = readFileSync(file, 'utf8');
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const visit = (node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const end = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
      const cls = owner(node);
      out.push({ lines: end - start + 1, where: `${relative(process.cwd(), file)}:${start + 1}`, name: `${cls && !ts.isFunctionDeclaration(node) ? `${cls}.` : ''}${nameOf(node)}` });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
}
out.sort((a, b) => b.lines - a.lines || a.where.localeCompare(b.where));
for (const f of out.slice(0, top)) console.log(`${String(f.lines).padStart(5)}  ${f.name}  ${f.where}`);
