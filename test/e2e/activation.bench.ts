// Benchmark: Waypoint's activation in code-server (VS Code 1.100.3), for `npm run bench`. Runs the e2e harness in
// its activation mode (fresh extension hosts on an empty folder, cold ext.activate(), median of 5) and relays its
// `activation: X ms` line. Needs what `npm run test:e2e` installs (scripts/e2e/install.sh runs first).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { REPO } from './prepare.js';

const r = spawnSync(process.execPath, [join(REPO, 'test', 'e2e', 'run.mjs'), '--skip-build', '--bench-activation=5'], { cwd: REPO, encoding: 'utf8' });
const line = /^activation: .*$/m.exec(r.stdout ?? '')?.[0];
if (r.status !== 0 || !line) {
  process.stderr.write(`${r.stdout ?? ''}${r.stderr ?? ''}`);
  console.error(`activation benchmark failed (exit ${r.status})`);
  process.exit(1);
}
console.log(line);
