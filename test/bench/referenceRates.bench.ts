// npm run bench:reference — the reference-flawed profile's FIXTURE success rates (not a finding about language
// models): MALMM's four topologies and every ablation of the built-in prompts, over seeds 0..N-1 of one task, all
// episodes in one process (one simulator, one sandbox, one reference server). Prints a markdown table for
// docs/reference-model.md. Options: --task stack_blocks --seeds 20 --profile reference-flawed --only <id,...>
//   --topologies-only --base default|waypoint. Takes about 15-40 minutes for the full table on a 2-core machine.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { ReferenceProfile } from '../../src/core/llm/reference/policy.js';
import { listAblationIds } from '../../src/core/prompt/render.js';
import { MALMM_WAYPOINT_ADDITIONS } from '../../src/architectures/malmm/manifest.js';
import { wilson95 } from '../../src/core/sweep/stats.js';
import { InProcessRunner, type EpisodeRequest } from '../unit/core/llm/reference/helpers/inProcess.js';
import { assertDistFresh } from '../helpers/dist.js';

assertDistFresh('dist/sandboxWorker.mjs');

const { values: a } = parseArgs({
  options: {
    task: { type: 'string', default: 'stack_blocks' },
    seeds: { type: 'string', default: '20' },
    profile: { type: 'string', default: 'reference-flawed' },
    only: { type: 'string' },
    'topologies-only': { type: 'boolean', default: false },
    /** Base variant of every row (MALMM's default is the paper's prompts; `waypoint` turns our additions on). */
    base: { type: 'string', default: 'default' },
  },
});
// Singh et al., Table II (Stack Blocks, 25 episodes inferred): the paper's rates beside the fixture's.
const PAPER_TABLE_II: Record<string, string> = { malmm: '56%', ma: '36%', sa: '20%', sa_nofeedback: '8%' };
const seeds = Number(a.seeds);
const profile = a.profile as ReferenceProfile;

interface Row {
  label: string;
  variant: string;
  off: string[];
}

const rows: Row[] = ['malmm', 'ma', 'sa', 'sa_nofeedback'].map((v) => ({ label: `topology ${v}`, variant: v, off: [] }));
// The topology variants carry no switches of their own; a `waypoint` base lays its additions over each of them.
const baseOn = a.base === 'waypoint' ? Object.keys(MALMM_WAYPOINT_ADDITIONS) : [];
if (!a['topologies-only']) {
  const dir = join(process.cwd(), 'src', 'architectures', 'malmm', 'prompts');
  // An id that several prompt files carry (api.motion_notes) is one switch: one row.
  const seen = new Set<string>();
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.prompt')).sort()) {
    for (const id of listAblationIds(readFileSync(join(dir, f), 'utf8'))) {
      if (seen.has(id)) continue;
      seen.add(id);
      // The single agent's ablations act on SA; the others on the full MALMM team.
      rows.push({ label: `${id} off`, variant: id.startsWith('sa.') ? 'sa' : 'malmm', off: [id] });
    }
  }
}
const only = a.only?.split(',');
const todo = only ? rows.filter((r) => only.some((o) => r.label.includes(o))) : rows;

const runner = await InProcessRunner.start();
const t0 = performance.now();
console.log(`reference model FIXTURE rates: profile ${profile}, task ${a.task}, seeds 0-${seeds - 1}, MALMM`);
console.log(`base variant: ${a.base}`);
console.log('| run | variant | successes | rate [95% Wilson] | paper (Table II, Stack Blocks) | mean turns | code errors / episode | format errors / episode | end reasons |');
console.log('|---|---|---|---|---|---|---|---|---|');
try {
  for (const row of todo) {
    let ok = 0;
    let turns = 0;
    let codeErrors = 0;
    let formatErrors = 0;
    const reasons = new Map<string, number>();
    for (let seed = 0; seed < seeds; seed++) {
      const req: EpisodeRequest = { task: a.task!, seed, profile, variant: row.variant, off: row.off, ...(baseOn.length ? { on: baseOn } : {}) };
      const { result } = await runner.run(req);
      if (result.success) ok++;
      const m = result.end.metrics;
      turns += m.turns;
      codeErrors += m.codeErrors;
      formatErrors += m.formatErrors;
      const key = `${result.success ? 'ok' : 'fail'}:${result.reason}`;
      reasons.set(key, (reasons.get(key) ?? 0) + 1);
    }
    const why = [...reasons].sort((x, y) => y[1] - x[1]).map(([k, n]) => `${k} ${n}`).join(', ');
    const w = wilson95(ok, seeds);
    const paper = row.off.length === 0 ? (a.task === 'stack_blocks' ? PAPER_TABLE_II[row.variant] ?? '' : '') : '';
    console.log(`| ${row.label} | ${row.variant} | ${ok}/${seeds} | ${Math.round((100 * ok) / seeds)}% [${Math.round(100 * w.low)}, ${Math.round(100 * w.high)}] | ${paper} | ${(turns / seeds).toFixed(1)} | ${(codeErrors / seeds).toFixed(2)} | ${(formatErrors / seeds).toFixed(2)} | ${why} |`);
  }
} finally {
  await runner.close();
}
console.log(`${todo.length} rows x ${seeds} seeds in ${((performance.now() - t0) / 60000).toFixed(1)} min`);
