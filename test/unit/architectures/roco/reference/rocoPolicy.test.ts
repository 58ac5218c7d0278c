// The reference model's RoCo dialog policy (scripted, not an LLM) on hand-written prompts in the dialog prompt's
// layout: a giver does not take back what it handed over, and a re-plan that quotes parse feedback still hands on.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decisionOf } from '../../../../../src/architectures/roco/parse.js';
import { rocoDialog } from '../../../../../src/architectures/roco/reference/index.js';
import type { ChatMessage } from '../../../../../src/protocol/trace.js';

const TASK = 'Put the wrench into the toolbox. Alice reaches x < 0.05, Bob reaches x > -0.05: hand it over in the middle.';

function prompt(me: 'Alice' | 'Bob', scene: string[], gripper: string, extra = ''): ChatMessage[] {
  const other = me === 'Alice' ? 'Bob' : 'Alice';
  const capability = me === 'Alice' ? 'based at (-0.40, -0.35). You can reach x from -0.60 to 0.05.' : 'based at (0.40, -0.35). You can reach x from -0.05 to 0.60.';
  const system = [
    `You are robot ${me}, and you work together with ${other} on a shared table. Your joint task: ${TASK}`,
    `You are ${me}, a Franka Panda (7-DoF arm) with a Franka hand ${capability}`,
    '',
    '[Action Options]',
    '1) PICK <object>: grasp the object',
    '2) PLACE <object> <target>: put the held object on the target',
    '3) MOVE (x, y, z): move the gripper to a point',
    '4) WAIT: stay where you are',
    '[Current Observation]',
    '[Scene]',
    ...scene,
    '[Robots]',
    `Your gripper is at ${gripper}`,
    '',
    '[Communication Instruction]',
    `Talk with ${other} to agree on one action per robot for this round.`,
    extra,
  ].join('\n');
  return [
    { role: 'system', content: system },
    { role: 'user', content: `You are ${me}, your response is:` },
  ];
}

const ctx = { profile: 'reference' as const, seed: 0 };

test('handover: once Bob holds the wrench, Alice (the giver, no toolbox in view) waits; Bob (the receiver) takes it from Alice', () => {
  const alice = rocoDialog(prompt('Alice', ['wrench is held by Bob, at (0.03, 0.15, 0.93)'], '(-0.09, 0.15, 0.95), holding nothing'), ctx);
  assert.match(alice, /NAME Alice ACTION WAIT/);
  assert.doesNotMatch(alice, /PICK wrench/);
  const bob = rocoDialog(prompt('Bob', ['wrench is held by Alice, at (0.03, 0.15, 0.93)', 'toolbox is at (0.37, 0.16, 0.78), size 0.28 x 0.20 x 0.06 m'], '(0.40, 0.00, 1.00), holding nothing'), ctx);
  assert.match(bob, /NAME Bob ACTION PICK wrench/);
});

test('a re-plan after a parse failure quotes the feedback without its keywords: the first speaker still hands on (PROCEED)', () => {
  const feedback = "This previous response from [Bob] failed to parse!: 'EXECUTE' the EXECUTE block has no 'NAME <robot> ACTION <action>' lines. Re-format to strictly follow [Action Output Instruction]!";
  const extra = ['[Previous Chat]', '[Alice]:', 'I am Alice. PROCEED', '[Bob]:', 'EXECUTE', feedback].join('\n');
  const reply = rocoDialog(prompt('Alice', ['wrench is on the table, at (-0.27, 0.08, 0.77)'], '(-0.40, 0.00, 1.10), holding nothing', extra), ctx);
  assert.match(reply, /The last plan failed \(.*failed to parse/);
  assert.doesNotMatch(reply, /EXECUTE/);
  assert.equal(decisionOf(reply), 'PROCEED');
});
