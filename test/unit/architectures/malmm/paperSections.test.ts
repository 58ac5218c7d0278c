// MALMM's default (`paper`) prompts have the paper's sections, in the paper's order, and nothing of ours: each
// role's prompt is rendered as a run renders it and its section headings are compared with the digest
// (000_malmm.md, beside the papers outside this repository, sections 2.3-2.7). Our additions appear only when the
// `waypoint` variant turns them on.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { architectures } from '../../../../src/architectures/registry.js';
import { openingMessage } from '../../../../src/architectures/malmm/loop.js';
import { MALMM_API } from '../../../../src/core/apis/malmm.js';
import { nodeIO } from '../../../../src/core/node/nodeHost.js';
import { loadPromptFile, renderPrompt } from '../../../../src/core/prompt/render.js';
import { resolveVariant } from '../../../../src/core/prompt/variants.js';

const arch = architectures.get('malmm');
const FILE: Record<string, string> = { supervisor: 'supervisor.prompt', planner: 'planner.prompt', coder: 'coder.prompt', agent: 'sa.prompt' };
const vars = {
  task: 'stack the red block on the green block',
  ee_position: '[0.0 0.0 1.1]',
  ee_yaw: '0.0',
  state: '**red block** :\nCenter Position: [0.1 0.2 0.775]\n**End-effector** :\nrobot arm end-effector Position: [0 0 1.1]\nNo object has been grasped',
  table_top_z: '0.7520',
  x_range: '[-0.3, 0.3]',
  y_range: '[-0.05, 0.35]',
  axes: 'x increases to the right, y away from the robot base, z up',
  api: MALMM_API.map((f) => ({ signature: f.signature, doc: f.doc })),
};

async function systemText(role: string, variant: string): Promise<string> {
  const file = await loadPromptFile(nodeIO, join(process.cwd(), 'src', 'architectures', 'malmm', 'prompts', FILE[role]!));
  const v = resolveVariant(variant, { active: 'default', variants: {} }, arch.builtInVariants);
  const r = await renderPrompt(file, { variables: vars, history: [], ablations: v.ablations });
  return r.messages.filter((m) => m.role === 'system').map((m) => m.content).join('\n');
}

/** Section headings: a line of capitals (with - and <>), an optional note in brackets, then a colon. */
function sections(text: string): string[] {
  return [...text.matchAll(/^(<?[A-Z][A-Z -]*>?)(?: \([^)\n]*\))?:[ \t]*$/gm)].map((m) => m[1]!.trim());
}

// The digest's section lists. Paper headings keep their names; the Supervisor's unheaded paragraphs (§2.4: role
// descriptions, task line, state) get the names in brackets here, which our prompt uses as its headings.
const PAPER: Record<string, { digest: string; sections: string[] }> = {
  supervisor: { digest: '§2.4 (Fig. 7)', sections: ['PLANNER ROLE', 'CODER ROLE', 'TASK', 'CURRENT ENVIRONMENT STATE'] },
  planner: {
    digest: '§2.5 (Fig. 8)',
    sections: ['ENVIRONMENT SET-UP', 'CONSTRAINTS', '<CURRENT ENVIRONMENT STATE>', 'COLLISION AVOIDANCE', 'COLLISION FREE OBJECT INTERACTION RULES', 'PLANNING'],
  },
  coder: { digest: '§2.6 (Fig. 9)', sections: ['AVAILABLE FUNCTIONS', 'CODE GENERATION'] },
  agent: {
    digest: '§2.3 (Fig. 6)',
    sections: [
      'PLANNER', 'ENVIRONMENT SET-UP', 'CONSTRAINTS', '<CURRENT ENVIRONMENT STATE>', 'COLLISION AVOIDANCE', 'COLLISION FREE OBJECT INTERACTION RULES', 'PLANNING',
      'CODE GENERATOR', 'AVAILABLE FUNCTIONS', 'CODE GENERATION',
      'TASK', '<CURRENT ENVIRONMENT STATE>',
    ],
  },
};

for (const [role, want] of Object.entries(PAPER)) {
  test(`paper default: the ${role} prompt has the digest's sections ${want.digest}, in order, and no others`, async () => {
    assert.deepEqual(sections(await systemText(role, 'default')), want.sections);
    // `paper` is the default under its own name.
    assert.equal(await systemText(role, 'paper'), await systemText(role, 'default'));
  });
}

test("SA without feedback has SA_sequential's sections: no re-planning paragraph (digest §2.7)", async () => {
  const text = await systemText('agent', 'sa_nofeedback');
  const want = [...PAPER.agent!.sections];
  want.splice(want.indexOf('<CURRENT ENVIRONMENT STATE>'), 1);
  assert.deepEqual(sections(text), want);
  assert.doesNotMatch(text, /five times in a row/);
  assert.match(text, /all the steps in one block/);
});

test('the waypoint variant adds our sections and lines, and only to the roles they belong to', async () => {
  assert.deepEqual(sections(await systemText('supervisor', 'waypoint')), [...PAPER.supervisor!.sections, 'HOW TO ROUTE']);
  const planner = await systemText('planner', 'waypoint');
  assert.match(planner, /The team's task: stack the red block/);
  assert.match(planner, /ask the Coder to call task_completed\(\)/);
  assert.deepEqual(sections(planner), PAPER.planner!.sections);
  // The Coder gains only the motion notes (api.motion_notes), no section.
  const coder = await systemText('coder', 'waypoint');
  assert.match(coder, /How the robot moves: /);
  assert.equal(coder.replace(/How the robot moves: [\s\S]*?close on nothing\.\n/, ''), await systemText('coder', 'default'));
  // Every addition the waypoint variant turns on is declared (prompt blocks or code), and the paper default has none on.
  const waypoint = resolveVariant('waypoint', { active: 'default', variants: {} }, arch.builtInVariants);
  assert.ok(Object.values(waypoint.ablations).every((on) => on === true));
  assert.deepEqual(resolveVariant('default', { active: 'default', variants: {} }, arch.builtInVariants).ablations, {});
});

// Drift from Fig. 8 and Fig. 6 found in the audit (issue 24): phrases of ours that the paper's prompts do not have,
// and the paper's own lines that had been dropped.
test("paper default: the Planner and SA prompts say what Figs. 8 and 6 say, without our drift", async () => {
  const drift = ['exact coordinates', 'third orientation value', "destination's centre and height", "with the object's yaw", "with the destination's yaw"];
  for (const role of ['planner', 'agent']) {
    const text = await systemText(role, 'default');
    assert.deepEqual(drift.filter((p) => text.includes(p)), [], role);
    assert.match(text, /detailed, step-by-step plan for the task/, role);
    // The whole re-plan paragraph: every object checked (moved or not), then the before/after comparison.
    assert.match(text, /has it moved, is it where\s+it should be\?/, role);
    assert.match(text, /before and after it; if it did not, re-plan/, role);
  }
  // Fig. 8 only: the fingers' starting direction.
  assert.match(await systemText('planner', 'default'), /two fingers, which at the start lie parallel to the x axis/);
});

test("the chat opens with the Supervisor's role descriptions for MALMM (App. E) and without them for MA", () => {
  const ctx = {
    task: { instruction: 'stack the red block on the green block' },
    initial: { state: { ee: { pos: [0, 0, 1.1], yawRad: 0 } } },
    render: () => '**red block** :',
  } as unknown as Parameters<typeof openingMessage>[0];
  const malmm = openingMessage(ctx);
  assert.match(malmm, /PLANNER ROLE: the Planner works out the steps/);
  assert.match(malmm, /CODER ROLE: the Coder writes code/);
  assert.ok(malmm.indexOf('CODER ROLE') < malmm.indexOf('stack the red block'), 'roles come before the task');
  const ma = openingMessage(ctx, 'User');
  assert.doesNotMatch(ma, /ROLE:|Supervisor/);
  assert.match(ma, /"stack the red block on the green block"/);
});
