// Issue 24: the planner's first message (Prompt 1) as the default variant renders it says what the paper's
// description of the photo says (App. E: the things, where they lie, the glass's liquid, the locations) and no
// spatial relation; the `waypoint` variant's scene.spatial_relations brings the relations back. Checked on the
// real scenes whose relations gave the glass-first order and the side grasp away (§V-A found them from feedback).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { ModelClient, ModelRequest, ModelResult } from '../../../../src/core/llm/client.js';
import { architectures } from '../../../../src/architectures/registry.js';
import { resolveVariant } from '../../../../src/core/prompt/variants.js';
import { createTabletopSimulator } from '../../../../src/core/sim/mujoco/index.js';
import type { Simulator } from '../../../../src/core/sim/simulator.js';
import { of, runWith, spec } from './scripted.js';

/** Phrases of the relations the paper's description lacks (context.ts's relation sentences). */
const FORBIDDEN = ['right next to', 'wedged between', 'little room', 'is behind', 'between it and the robot', 'hangs right over', 'hangs over'];

/** A model that never gives a plan: the run ends after the repairs, before anything moves. */
const silent: ModelClient = {
  id: 'silent',
  async complete(_r: ModelRequest): Promise<ModelResult> {
    return { ok: true, text: 'No plan.', latencyMs: 0, cached: false, attempts: 1 };
  },
};

let sim: Simulator;
before(async () => {
  sim = await createTabletopSimulator();
});
after(async () => {
  await sim.close();
});

async function planRequest(task: string, variant?: 'waypoint'): Promise<string> {
  const s = spec({ taskPlanRepairs: 0 }, task);
  if (variant) s.variant = resolveVariant(variant, { active: 'default', variants: {} }, architectures.get('actctx').builtInVariants);
  const { events } = await runWith(s, silent, sim);
  const call = of(events, 'role_call').find((c) => c.role === 'task_plan');
  assert.ok(call, `${task}: the planner was asked`);
  return call.messages.filter((m) => m.role === 'user').map((m) => m.content).join('\n');
}

for (const task of ['ac_sequential', 'ac_robust_lamp', 'ac_single_paper_ball_2', 'clear_table_bin']) {
  test(`${task}: the default planner message states no spatial relation; the waypoint variant's does`, async () => {
    const paper = await planRequest(task);
    assert.match(paper, /'half-eaten apple' lies|'crumpled paper ball 2' lies/, 'the things and where they lie are described');
    assert.deepEqual(FORBIDDEN.filter((p) => paper.includes(p)), [], `${task}: relation phrases in the default planner message`);
    const ours = await planRequest(task, 'waypoint');
    assert.ok(FORBIDDEN.some((p) => ours.includes(p)), `${task}: scene.spatial_relations brings the relations back`);
  });
}

test('the liquid glass note stays in the default description (App. E: "partially filled with a yellowish liquid")', async () => {
  assert.match(await planRequest('ac_sequential'), /'glass with yellowish liquid' lies [^.]*filled with a yellowish liquid/);
});
