// The twelve main-prompt removals of the paper (digest 7.1) as {{#ablation}} blocks: each id, turned off, changes
// the rendered main prompt by exactly the digest's edit (the removed sentences absent, everything else unchanged),
// and the two output formats of 7.2 make the paper's prompt edits.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { listAblationIds, parsePromptFile, renderPrompt } from '../../../../src/core/prompt/render.js';

const path = join(process.cwd(), 'src', 'architectures', 'trajgen', 'prompts', 'main.prompt');
const file = parsePromptFile(path, readFileSync(path, 'utf8'));
const variables = { task: "Wipe the plate with the sponge.", ee_position: "[0.000, 0.000, 1.100]" };
const render = async (ablations: Record<string, boolean> = {}) => (await renderPrompt(file, { variables, ablations })).messages[0]!.content;

const L = {
  stepsItem: '- The trajectory may be broken down into several steps. Each step (at default speed) should then have at least 100 points.',
  defineGeneral: '  Define general functions that can be reused for several trajectory steps wherever possible, but define a new function whenever a new kind of motion is needed.',
  reasoning: '  Give step-by-step reasoning before you generate the code.',
  chaining:
    '- When the trajectory is broken down into steps, chain them so that the start point of trajectory_2 equals the end point of trajectory_1, and so on, for a smooth overall motion. Call execute_trajectory after each trajectory step.',
  plan: 'Then, write a detailed step-by-step plan for the trajectory, including when to lower the gripper to make contact with the object, if necessary.',
  perform: 'Finally, carry out each of these steps one by one.',
  nameVars: 'Name each trajectory variable with its trajectory number.',
  stopCalls: 'Whenever you call one of these functions, stop generating right after the call and wait for it to run before you call another one and go on with your plan.',
  stopDetect: 'Stop generating after this step and wait until you have the printed outputs of the detect_object calls.',
  stopBlocks: 'Stop generating after each code block and wait for it to finish running before you go on with your plan.',
  annotate: '- When you define functions, state their parameters and document them clearly in the code. Include the orientation parameter.',
  shape: '- Describe briefly the shape of the motion the task needs.',
  approach: 'Then, describe how best to approach the object (for example its midpoint, or one of its edges), depending on the nature of the task, the object\'s dimensions, and so on.',
  partSentence: 'If the task needs interaction with a part of an object (rather than the object as a whole), describe which part of the object the gripper should interact with.',
};
const HEADINGS = ['AVAILABLE FUNCTIONS:', 'ENVIRONMENT SET-UP:', 'COLLISION AVOIDANCE:', 'VELOCITY CONTROL:', 'CODE GENERATION:', 'INITIAL PLANNING 1:', 'INITIAL PLANNING 2:'];
const COLLISION_SECTION = [
  'COLLISION AVOIDANCE:',
  'When the task involves more than one object:',
  '- Take the widths, lengths and heights of the objects into account, so that no object hits another object or the tabletop unless it has to.',
  '- It can help to add trajectories with specific waypoints (worked out from the object information) to clear objects and the tabletop and avoid collisions, if necessary.',
  '',
];

/** `text` with `a` replaced by `b`; `a` must occur exactly once. */
function swap(text: string, a: string, b: string): string {
  const n = text.split(a).length - 1;
  assert.equal(n, 1, `expected exactly one ${JSON.stringify(a.slice(0, 60))} in the default prompt, found ${n}`);
  return text.replace(a, b);
}
const drop = (text: string, line: string) => swap(text, `${line}\n`, '');

/** The digest's table (7.1): the edit each id makes, applied to the default render. */
const EDITS: Record<string, (t: string) => string> = {
  'abl.traj_step_by_step': (t) => [L.stepsItem, L.defineGeneral, L.reasoning, L.chaining, L.plan, L.perform, L.nameVars].reduce(drop, t),
  'abl.gen_exec_step_by_step': (t) => [L.stopCalls, L.stopDetect, L.stopBlocks].reduce(drop, t),
  'abl.lower_gripper': (t) => swap(t, L.plan, 'Then, write a detailed step-by-step plan for the trajectory.'),
  'abl.define_annotate_functions': (t) => [L.defineGeneral, L.annotate].reduce(drop, t),
  'abl.number_traj_variable': (t) => drop(swap(swap(t, 'trajectory_2', 'trajectory 2'), 'trajectory_1', 'trajectory 1'), L.nameVars),
  'abl.collision_phrase': (t) => swap(t, 'to clear objects and the tabletop and avoid collisions, if necessary.', 'to avoid collisions, if necessary.'),
  'abl.section_headings': (t) => HEADINGS.reduce(drop, t),
  'abl.trajectory_shape': (t) => drop(t, L.shape),
  'abl.object_part': (t) =>
      swap(
        swap(t, `${L.partSentence}\nThen, detect the objects`, 'Detect the objects'),
        '- `detect_object(object_or_object_part: str) -> None`: returns nothing, but prints the position, orientation and dimensions of an object or object part, once for every instance of the queried object or object part in the scene. When there are several objects or object parts to detect,',
        '- `detect_object(object: str) -> None`: returns nothing, but prints the position, orientation and dimensions of an object, once for every instance of the queried object in the scene. When there are several objects to detect,',
      ),
  'abl.collision_section': (t) => swap(t, `${COLLISION_SECTION.join('\n')}\n`, ''),
  'abl.object_approach': (t) => drop(t, L.approach),
  'abl.trajectory_chaining': (t) => [L.chaining, L.nameVars].reduce(drop, t),
};

test('trajgen main prompt: the template holds the twelve main-prompt ablations of the paper and the two output formats', () => {
  const ids = listAblationIds(file.source);
  assert.deepEqual(ids.filter((i) => i.startsWith('abl.')).sort(), Object.keys(EDITS).sort());
  assert.deepEqual(ids.filter((i) => !i.startsWith('abl.')).sort(), ['out.code_output', 'out.gripper_functions']);
});

for (const [id, edit] of Object.entries(EDITS)) {
  test(`trajgen main prompt: turning off ${id} makes exactly the digest's edit`, async () => {
    const on = await render();
    const off = await render({ [id]: false });
    assert.notEqual(off, on);
    assert.equal(off, edit(on));
  });
}

test('trajgen main prompt: the binary-gripper format (Fig. 18) asks for a fifth pose element and drops the gripper functions', async () => {
  const on = await render();
  const off = await render({ 'out.gripper_functions': false });
  assert.match(off, /pose of length 5, made of a 3D position, a rotation value and a gripper state\./);
  assert.doesNotMatch(off, /open_gripper|close_gripper/);
  assert.match(off, /and the gripper open \(1\)\./);
  assert.match(off, /Include the orientation and gripper state parameters\./);
  assert.match(on, /open_gripper\(\) -> None/);
});

test('trajgen main prompt: the numeric format (Fig. 17) asks for numbers in <trajectory> tags and has no code rules', async () => {
  const off = await render({ 'out.code_output': false });
  assert.match(off, /^AVAILABLE ACTIONS:$/m);
  assert.match(off, /<detect_object>object_or_object_part<\/detect_object>/);
  assert.match(off, /default speed is 0\.01 between each trajectory point/);
  assert.match(off, /^TRAJECTORY GENERATION:$/m);
  assert.match(off, /between the <trajectory> and <\/trajectory> tags, as a Python list/);
  assert.doesNotMatch(off, /CODE GENERATION:|```python|execute_trajectory\(/);
});

test('trajgen main prompt: a re-plan appends the failure prompt with the summary', async () => {
  const r = (await renderPrompt(file, { variables: { ...variables, failure_summary: 'The sponge was never lowered.' } })).messages[0]!.content;
  assert.match(r, /The user command is "Wipe the plate with the sponge\."\.\n\nSUMMARY OF PREVIOUS FAILED ATTEMPTS:\nThe sponge was never lowered\.\n\nPROBLEM RESOLUTION:\n[^\n]+\nThen re-plan and retry the task, continuing with INITIAL PLANNING 1\.$/);
});
