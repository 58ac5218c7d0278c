// The reference model's MALMM policies on their own: reading the state text and names as a model would, reading
// rules from reworded prompts without crashing, and the flawed profile's seeded, repeatable mistakes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FLAW_RATES } from '../../../../../src/architectures/malmm/reference/flaws.js';
import { readRules } from '../../../../../src/architectures/malmm/reference/rules.js';
import { findObject, parseStateText } from '../../../../../src/architectures/malmm/reference/scene.js';
import { defaultRolePolicies } from '../../../../../src/core/llm/reference/policy.js';
import { box, codeOf, MalmmChat, planMoves, world } from './helpers/malmmChat.js';

const STACK_TASK = 'Stack the red block and the blue block on top of the green block.';
const scene = () =>
  world([box('green block', [-0.12, 0.0, 0.7747], { yaw: 0.3 }), box('red block', [0.1, 0.15, 0.7747], { yaw: 0.25 }), box('blue block', [0.15, 0.05, 0.7747], { yaw: -0.2 })]);

test('state text: read with commas or spaces, missing fields defaulted; names matched by their words', () => {
  const s = parseStateText(
    ['**red_block** :', 'Center Position: [0.1, -0.2, 0.02]', 'Orientation: [0 0 0.5]', 'Color: red', '**green_zone**:', 'Center Position: [0 0 0]', 'Height: 0.001', '**End-effector** :', 'robot arm end-effector Position: [0 0 0.3]', 'Grasped Object: red_block'].join('\n'),
  )!;
  assert.deepEqual(s.objects[0]!.pos, [0.1, -0.2, 0.02]);
  assert.equal(s.objects[0]!.yaw, 0.5);
  assert.equal(s.objects[0]!.height, 0.05, 'a missing height falls back to a 5 cm guess');
  assert.equal(s.grasped, 'red_block');
  assert.equal(s.gripperOpen, false);
  assert.equal(findObject(s, 'the red block')?.name, 'red_block');
  assert.equal(findObject(s, 'red cube')?.name, 'red_block', 'cube = block');
  assert.equal(findObject(s, 'green zone')?.name, 'green_zone');
  assert.equal(findObject(s, 'green area')?.name, 'green_zone', 'area = zone');
  assert.equal(findObject(s, 'purple block'), undefined);
  const two = parseStateText('**red block 1** :\nCenter Position: [0 0 0]\n**red block 2** :\nCenter Position: [1 0 0]\n**End-effector** :\nrobot arm end-effector Position: [0 0 1]\nNo object has been grasped')!;
  assert.equal(findObject(two, 'red block'), undefined, 'two equally good matches: no guess');
  assert.equal(findObject(two, 'red block 2')?.name, 'red block 2');
  assert.equal(parseStateText('no state here'), undefined);
});

test('rules: reworded prompts are understood; a prompt that states none of them gives the documented defaults', () => {
  const r = readRules('Blocks do not share variables, so declare everything you use in this block. Do it all in one go. Rule: the safe distance is 0.15 m and the release distance is 0.03 m. y goes away from the robot.');
  assert.equal(r.defineInSameBlock, true);
  assert.equal(r.oneStepPerBlock, false);
  assert.equal(r.safeDistance, 0.15);
  assert.equal(r.releaseDistance, 0.03);
  const none = readRules('You are a helpful robot.');
  assert.deepEqual(
    Object.entries(none).filter(([, v]) => v === true),
    [],
  );
  assert.equal(none.safeDistance, undefined);
});

test('a Planner given a bare prompt still answers with a plan (guessed distances), never an exception', async () => {
  const c = new MalmmChat(STACK_TASK, scene());
  const messages = (await c.request('planner')).map((m) => (m.role === 'system' ? { ...m, content: 'You plan for a robot.' } : m));
  const plan = defaultRolePolicies.get('malmm', 'planner')!(messages, { profile: 'reference', meta: { arch: 'malmm', role: 'planner' } });
  const moves = planMoves(plan);
  assert.ok(moves.length >= 2, plan);
  assert.equal(moves[0]!.say, 'move to the red block', 'no pick-and-place rules: straight to the object');
});

test('a task it does not know, or a name that matches nothing, is said in plain words', async () => {
  const unknown = new MalmmChat('Juggle the blocks.', scene());
  assert.match(await unknown.answer('planner'), /^The reference policy \(scripted, not an LLM\) cannot continue: it does not know how to do "Juggle the blocks\."/);
  const missing = new MalmmChat('Stack the purple block on top of the green block.', scene());
  assert.match(await missing.answer('planner'), /no object in the state matches "the purple block"/);
});

/** A chat where the Coder's last block failed with a NameError. */
async function afterNameError(): Promise<MalmmChat> {
  const c = new MalmmChat(STACK_TASK, scene());
  const plan = await c.turn('planner');
  await c.turn('coder');
  const s = scene();
  s.ee = { pos: planMoves(plan)[0]!.pos as [number, number, number], yawRad: 0.25 };
  c.executor(s);
  c.say('Coder', '```python\n# lower\nposition = [0.1000, 0.1500, 0.7747]\nexecute_trajectory(position, yaw)\n```').executor(s, { type: 'NameError', message: "name 'yaw' is not defined", line: 3 });
  return c;
}

test('reference-flawed: the same request gets the same answer; another request seed draws again', async () => {
  const c = await afterNameError();
  const ask = (seed: number) => c.answer('coder', [], 'reference-flawed', seed);
  assert.equal(await ask(7), await ask(7));
  const answers = await Promise.all(Array.from({ length: 40 }, (_, seed) => ask(seed)));
  assert.ok(new Set(answers).size > 1, 'different seeds make different choices');
  // The competent profile ignores the seed.
  assert.equal(await c.answer('coder', [], 'reference', 1), await c.answer('coder', [], 'reference', 2));
});

test('reference-flawed fixes a NameError after seeing it, most of the time', async () => {
  const c = await afterNameError();
  const fixed = (await Promise.all(Array.from({ length: 100 }, (_, seed) => c.answer('coder', [], 'reference-flawed', seed)))).filter((a) => /^yaw = /m.test(codeOf(a))).length;
  const expected = 100 * (1 - FLAW_RATES.nameErrorNotFixed);
  assert.ok(Math.abs(fixed - expected) <= 15, `fixed ${fixed} of 100 (rate ${1 - FLAW_RATES.nameErrorNotFixed})`);
  assert.ok(fixed < 100, 'and sometimes repeats the mistake');
});

test('reference-flawed: the ablation switch does not reshuffle the dice (the system prompt is not hashed)', async () => {
  const c = await afterNameError();
  // Same chat, same seed, two system prompts that differ only in an unrelated rule: same draw for the fix.
  for (let seed = 0; seed < 20; seed++) {
    const on = /^yaw = /m.test(codeOf(await c.answer('coder', [], 'reference-flawed', seed)));
    const off = /^yaw = /m.test(codeOf(await c.answer('coder', ['coder.center_grasp_reminder'], 'reference-flawed', seed)));
    assert.equal(on, off, `seed ${seed}`);
  }
});
