// Lines of TypeScript per folder: every top-level folder of src/ and src/core/, webview/, and each architecture
// (its loop, reference policies, views and prompts wherever they live). `node scripts/lines-per-folder.mjs`.
// Used for the closing notes of refactoring issues (before and after a move).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ARCHS = ['malmm', 'roco', 'actctx', 'llamar', 'trajgen'];

function files(dir, keep, out = []) {
  if (!existsSync(dir)) return out;
  for (const n of readdirSync(dir)) {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) files(p, keep, out);
    else if (keep(p)) out.push(p);
  }
  return out;
}
const lines = (list) => list.reduce((n, f) => n + readFileSync(f, 'utf8').split('\n').length - 1, 0);
const ts = (p) => /\.(ts|mts)$/.test(p) && !p.endsWith('.d.ts');
const sub = (dir) => (existsSync(dir) ? readdirSync(dir).filter((n) => statSync(join(dir, n)).isDirectory()).map((n) => join(dir, n)) : []);

const rows = [];
for (const d of [...sub('src').flatMap((d) => (d === join('src', 'core') ? sub(d) : [d])), 'webview']) rows.push([d, lines(files(d, ts))]);
rows.push(['(all .ts under src/ and webview/)', lines([...files('src', ts), ...files('webview', ts)])]);
rows.push(['', 0]);
// An architecture's files wherever they are: a path segment or a file name carrying its id; the simulator's robot
// APIs and tasks (src/core/apis, src/core/sim), which any client may call, are not the architecture's.
const simulator = (p) => p.startsWith(join('src', 'core', 'apis')) || p.startsWith(join('src', 'core', 'sim'));
const all = [...files('src', () => true), ...files('webview', () => true), ...files('prompts', () => true)].filter((p) => !simulator(p));
for (const a of ARCHS) {
  const mine = all.filter((p) => p.split('/').some((s) => s === a || s.startsWith(`${a}.`) || new RegExp(`^${a}[A-Z]`).test(s)));
  rows.push([`${a}: .ts`, lines(mine.filter(ts))], [`${a}: .prompt`, lines(mine.filter((p) => p.endsWith('.prompt')))]);
}
for (const [k, v] of rows) console.log(k ? `${String(v).padStart(7)}  ${k}` : '');
