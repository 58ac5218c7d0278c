// Issue 24: the default (paper) variant tells each role only what the paper's model was told. Each system's roles
// are rendered as a run renders them and searched for phrases that carry information the paper withheld; the same
// phrases appear when the variant that adds them is on, so each list is known to match what it guards against.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { architectures } from '../../../src/architectures/registry.js';
import { MALMM_API } from '../../../src/core/apis/malmm.js';
import { nodeIO } from '../../../src/core/node/nodeHost.js';
import { loadPromptFile, renderPrompt } from '../../../src/core/prompt/render.js';
import { resolveVariant } from '../../../src/core/prompt/variants.js';

async function rendered(archId: string, promptFile: string, variables: Record<string, unknown>, variant: string): Promise<string> {
  const arch = architectures.get(archId);
  const file = await loadPromptFile(nodeIO, join(process.cwd(), 'src', 'architectures', archId, 'prompts', promptFile));
  const v = resolveVariant(variant, { active: 'default', variants: {} }, arch.builtInVariants);
  const r = await renderPrompt(file, { variables, history: [], ablations: v.ablations });
  return r.messages.map((m) => m.content).join('\n');
}

const found = (text: string, phrases: readonly string[]) => phrases.filter((p) => text.toLowerCase().includes(p.toLowerCase()));

// MALMM (Fig. 9): the Coder's and the single agent's function list is the bare functions, with no word on how the
// robot moves or what the gripper does.
const MALMM_FORBIDDEN = ['straight line', 'motion planner', 'around obstacles', 'unreachable', '0.08 m', 'between the fingers', 'close on nothing'];
const MALMM_VARS = {
  task: 'stack the red block on the green block',
  ee_position: '[0.0 0.0 1.1]',
  ee_yaw: '0.0',
  state: '**red block** :\nCenter Position: [0.1 0.2 0.775]',
  table_top_z: '0.7520',
  x_range: '[-0.3, 0.3]',
  y_range: '[-0.05, 0.35]',
  axes: 'x right, y away, z up',
  api: MALMM_API.map((f) => ({ signature: f.signature, doc: f.doc })),
};

test('MALMM default: the Coder and the single agent get the bare functions, not how execute_trajectory moves', async () => {
  for (const file of ['coder.prompt', 'sa.prompt']) {
    assert.deepEqual(found(await rendered('malmm', file, MALMM_VARS, 'paper'), MALMM_FORBIDDEN), [], `${file}, paper variant`);
    assert.deepEqual(found(await rendered('malmm', file, MALMM_VARS, 'waypoint'), MALMM_FORBIDDEN), MALMM_FORBIDDEN, `${file}, waypoint variant (api.motion_notes)`);
  }
});

// LLaMAR (App. E.1): the Corrector's job is the Actor's "failure reason" field, which asks the model to reason out
// why an action failed; it lists no causes and no simulator distances.
const LLAMAR_FORBIDDEN = ['1.5 m', 'Causes to consider', 'receptacle is closed', 'acted on the same object', 'already in the state asked for'];
const LLAMAR_VARS = { agent_count: '2', agent_names: 'Alice and Bob', agents: ['Alice', 'Bob'], robot_word: 'robots', input: "{Task: put the apple in the fridge, Alice's previous action: pick up object Apple_1 (failed)}" };

test("LLaMAR default: the Corrector reasons about failures without the simulator's list of causes", async () => {
  assert.deepEqual(found(await rendered('llamar', 'corrector.prompt', LLAMAR_VARS, 'llamar'), LLAMAR_FORBIDDEN), []);
  assert.deepEqual(found(await rendered('llamar', 'corrector.prompt', LLAMAR_VARS, 'waypoint'), LLAMAR_FORBIDDEN), LLAMAR_FORBIDDEN, 'waypoint variant (corrector.failure_causes)');
});

// LLaMAR (App. E.1, "Important Notes"): the Actor's notes are the paper's five rules (one object at a time; seeing
// is not reaching, navigate closer; explore by rotating, looking up/down, navigating; close what you opened before
// navigating away; open things block the way) and no rule of the simulator the paper's notes do not state.
const LLAMAR_ACTOR_FORBIDDEN = ['1.5 m', 'only after opening', 'same object in the same step'];
const LLAMAR_ACTOR_RULES: [string, RegExp][] = [
  ['one object at a time', /hold only one object at a time/],
  ['navigate closer before acting', /too far away[\s\S]*close enough to it, so navigate the robot closer first/],
  ['explore by rotating, looking, navigating', /rotate in place,\s+look up or down, or navigate elsewhere/],
  ['close what was opened before navigating away', /close it again before it navigates somewhere else/],
  ['open things block the way', /drawers, cabinets and fridges can block the robots' way, so open objects only when it is necessary/],
];

test("LLaMAR default: the Actor's Important Notes are App. E.1's rules, none added, none dropped; ours only in the waypoint variant", async () => {
  const paper = await rendered('llamar', 'actor.prompt', LLAMAR_VARS, 'llamar');
  assert.deepEqual(found(paper, LLAMAR_ACTOR_FORBIDDEN), []);
  for (const [rule, re] of LLAMAR_ACTOR_RULES) assert.match(paper, re, `paper rule: ${rule}`);
  const notes = paper.slice(paper.indexOf('### IMPORTANT NOTES ###'), paper.indexOf('Answer with a Python dictionary'));
  assert.equal(notes.split('\n').filter((l) => l.startsWith('* ')).length, LLAMAR_ACTOR_RULES.length, 'as many notes as the paper has rules');
  const waypoint = await rendered('llamar', 'actor.prompt', LLAMAR_VARS, 'waypoint');
  assert.deepEqual(found(waypoint, LLAMAR_ACTOR_FORBIDDEN), LLAMAR_ACTOR_FORBIDDEN, 'waypoint variant (actor.simulator_notes)');
  for (const [rule, re] of LLAMAR_ACTOR_RULES) assert.match(waypoint, re, `waypoint keeps the paper rule: ${rule}`);
});

// RoCo (§3.1, the released prompts): the communication instruction asks for brief answers that do not repeat the
// others; asking each robot to announce its reach and needs is ours.
const ROCO_VARS = {
  task: 'sort the cubes', actions: [], rules: [], strategy: ['To move a cube farther than you reach, put it on a panel the next robot reaches.'], example: '', path_required: false, path_points: 0, round_history: '', failed_plans: '', last_plan_failed: false,
  agent: 'Alice', others: 'Bob and Chad', capability: 'Alice can reach the left half.', others_capability: ['Bob is a Franka Panda and can reach panel3, panel4, panel5.\nBob\'s goal is to place pink_polygon on panel4.'], observation: 'blue_square is on panel2',
  previous_chat: '', feedback: [], current_chat: '', last_call: false,
};

test("RoCo default: the communication instruction is the paper's; 'say what you can reach and what you need' only in the waypoint variant", async () => {
  const ask = ['what you can reach and what you need'];
  const paper = await rendered('roco', 'dialog.prompt', ROCO_VARS, 'dialog');
  assert.deepEqual(found(paper, ask), []);
  assert.match(paper, /do not repeat what others said/);
  assert.deepEqual(found(await rendered('roco', 'dialog.prompt', ROCO_VARS, 'waypoint'), ask), ask, 'waypoint variant (dialog.share_reach)');
});

// RoCo (App. 10.4, 10.7): each robot hears only its own goal and reach; the others' and the strategy rules are ours
// (task.others_goals_reach, task.strategy_rules), in both roles' prompts where they apply.
test("RoCo default: the other robots' goals and reach and the strategy rules only in the waypoint variant", async () => {
  const extra = ["Bob's goal is to place pink_polygon on panel4", 'can reach panel3, panel4, panel5', 'put it on a panel the next robot reaches'];
  assert.deepEqual(found(await rendered('roco', 'dialog.prompt', ROCO_VARS, 'dialog'), extra), []);
  assert.deepEqual(found(await rendered('roco', 'dialog.prompt', ROCO_VARS, 'waypoint'), extra), extra, 'waypoint variant');
  const central = { ...ROCO_VARS, agents: 'Alice, Bob and Chad', robots: [] };
  assert.deepEqual(found(await rendered('roco', 'central.prompt', central, 'central_plan'), extra.slice(2)), [], 'Central Plan: no strategy rule by default');
  assert.deepEqual(found(await rendered('roco', 'central.prompt', central, 'waypoint'), extra.slice(2)), extra.slice(2), 'Central Plan under the waypoint variant');
});
