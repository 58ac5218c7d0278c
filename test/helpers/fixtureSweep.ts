// A fixture sweep folder (three MALMM columns x 12 seeds on stack_blocks, records written as the scheduler writes
// them) whose traces are the committed pick-place fixture; the 'sa' column's trace is that episode with the
// Planner's re-plan rule dropped from its prompt and a different Coder answer at turn 8 (so the side-by-side view
// has a prompt diff and a first diverging turn). Used by the webview test and the e2e UI scenario.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EpisodeRecord } from '../../src/core/sweep/record.js';

const ROOT = join(import.meta.dirname, '..', '..');
const FIXTURE = readFileSync(join(ROOT, 'test/fixtures/traces/malmm-pick-place.jsonl'), 'utf8');
export const DROPPED_RULE = '3. After each step, compare the new state with the previous one and re-plan if a step failed.';

/** The fixture episode as the 'sa' column ran it: a Planner prompt without its re-plan rule, a different Coder answer at turn 8. */
function variantTrace(): string {
  return FIXTURE.trim()
    .split('\n')
    .map((line) => {
      const e = JSON.parse(line) as { type: string; turn?: number; role?: string; text?: string; messages?: { content: string }[]; success?: boolean; reason?: string };
      if (e.type === 'role_call') for (const m of e.messages ?? []) m.content = m.content.replace(`\n${DROPPED_RULE}`, '');
      if (e.type === 'model_response' && e.turn === 8) e.text = 'Grasping now.\n```python\nclose_gripper(force=0.5)\n```';
      if (e.type === 'episode_end') Object.assign(e, { success: false, reason: 'turn_cap' });
      return JSON.stringify(e);
    })
    .join('\n') + '\n';
}

/** Writes the sweep 'fixture' into the workspace `ws`; returns its folder. */
export function fixtureSweep(ws: string): string {
  const dir = join(ws, '.waypoint', 'sweeps', 'fixture');
  mkdirSync(join(dir, 'episodes'), { recursive: true });
  const cells = ['malmm', 'ma', 'sa'];
  const episodes: { key: string }[] = [];
  const sa = variantTrace();
  const labelsFor = (cell: string, seed: number) => (cell === 'malmm' ? ['name_error'] : cell === 'ma' ? ['premature_completion'] : seed % 2 ? ['name_error', 'incomplete_subgoal'] : ['missing_arguments']);
  for (const cell of cells)
    for (let seed = 0; seed < 12; seed++) {
      const success = cell === 'malmm' ? seed !== 3 : cell === 'ma' ? seed % 3 !== 0 : seed < 2;
      const key = `malmm-stack_blocks-${cell}-s${seed}-r0-fixture`;
      episodes.push({ key });
      // Beside the sweep rather than in .waypoint/runs, so the workspace's run list stays as it was (the e2e
      // scenario picks its fixture run from it by start time, which these copies share).
      const tracePath = `.waypoint/sweeps/fixture/runs/${key}/trace.jsonl`;
      mkdirSync(join(ws, '.waypoint/sweeps/fixture/runs', key), { recursive: true });
      writeFileSync(join(ws, tracePath), cell === 'sa' ? sa : FIXTURE);
      const r: EpisodeRecord = { key, task: 'stack_blocks', cell, variant: cell, ablations: {}, seed, repeat: 0, runId: key, tracePath, success, reason: success ? 'task_completed' : 'turn_cap', agentClaimedDone: success, turns: 20 + seed, modelCalls: 10, cachedCalls: 0, promptTokens: 1000, completionTokens: 200, cost: 0, callsByRole: {}, latencyMs: 50, durationMs: 900, codeErrors: 0, archMetrics: {}, labels: success ? [] : labelsFor(cell, seed).map((label, i) => ({ label, turn: 2 + i, evidence: `${label} evidence`, source: 'auto' as const })) };
      writeFileSync(join(dir, 'episodes', `${key}.json`), JSON.stringify(r));
    }
  writeFileSync(join(dir, 'plan.json'), JSON.stringify({ name: 'fixture', spec: { arch: 'malmm', tasks: ['stack_blocks'], model: { name: 'reference-flawed' } }, cells: cells.map((name) => ({ name })), baseline: 'malmm', episodes }));
  // A hand edit replaces one episode's automatic labels.
  writeFileSync(join(dir, 'labels.json'), JSON.stringify({ 'malmm-stack_blocks-malmm-s3-r0-fixture': [{ label: 'drop', turn: 9, evidence: 'by hand', source: 'manual' }] }));
  return dir;
}

