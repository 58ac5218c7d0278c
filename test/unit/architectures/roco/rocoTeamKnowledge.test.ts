// Issue 24, RoCo App. 10.4 and 10.7: in Sort Cubes each robot is told only its own goal and reach, and the dialog
// is how the robots learn the others'. Recorded through the product path (launchRun: the MuJoCo tabletop, the
// reference model over its local endpoint, scripted, not an LLM), the test reads the messages Alice's first call
// was sent, in the default variant and in the `waypoint` variant that turns the shared text back on.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { architectures } from '../../../../src/architectures/registry.js';
import { nodeClock, nodeIO } from '../../../../src/core/node/nodeHost.js';
import { launchRun, type LaunchResult } from '../../../../src/core/runs/launch.js';
import { createPyodideSandbox } from '../../../../src/core/sandbox/index.js';
import { createTabletopSimulator } from '../../../../src/core/sim/mujoco/index.js';
import { readTrace } from '../../../../src/core/trace/reader.js';
import type { EventOf } from '../../../../src/protocol/trace.js';

const workspace = mkdtempSync(join(tmpdir(), 'waypoint-roco-team-'));
after(() => rmSync(workspace, { recursive: true, force: true }));
const deps = { io: nodeIO, clock: nodeClock, architectures, createSimulator: () => createTabletopSimulator(), createSandbox: () => createPyodideSandbox() };

interface Recorded {
  run: LaunchResult;
  calls: EventOf<'role_call'>[];
  answers: Map<string, string>;
}

async function record(variant: string | undefined, limits: Record<string, number> = {}): Promise<Recorded> {
  const run = await launchRun(
    { workspace, arch: 'roco', task: 'sort_cubes', seed: 0, ...(variant ? { variant } : {}), limits, builtInPromptRoot: join(process.cwd(), 'src', 'architectures'), model: { kind: 'reference', profile: 'reference' } },
    deps,
  );
  const events = readTrace(readFileSync(run.tracePath, 'utf8')).events;
  const calls = events.filter((e): e is EventOf<'role_call'> => e.type === 'role_call');
  const answers = new Map(events.filter((e): e is EventOf<'model_response'> => e.type === 'model_response').map((e) => [e.callId, e.text ?? '']));
  return { run, calls, answers };
}

const text = (c: EventOf<'role_call'>) => c.messages.map((m) => m.content).join('\n');

// Bob's and Chad's goal and reach as the shared-everything prompt said them, and the strategy rule the paper lacks.
const OTHERS = ['pink_polygon on panel4', 'yellow_trapezoid on panel6', 'reach panel3, panel4, panel5', 'reach panel5, panel6, panel7'];
const STRATEGY = 'put it on a panel the next robot reaches';

let paper: Recorded;
before(async () => {
  paper = await record(undefined);
});

test("RoCo sort_cubes, default variant: Alice's prompt holds her own goal and reach, not Bob's or Chad's, and no strategy rule", () => {
  const alice = text(paper.calls.find((c) => c.agent === 'Alice')!);
  assert.match(alice, /You can reach panel1, panel2, panel3\./);
  assert.match(alice, /Your goal is to place blue_square on panel2\./);
  assert.deepEqual(OTHERS.filter((p) => alice.includes(p)), []);
  assert.ok(!alice.includes(STRATEGY), 'the strategy rule is not in the paper default');
  // The paper's Sort Cubes observation has no coordinates (cubes by panel) and no prompt gives base positions.
  assert.ok(!/based at|\(-?\d+\.\d+, -?\d+\.\d+, -?\d+\.\d+\)/.test(alice.slice(alice.indexOf('[Current Observation]'))), 'no coordinates in the observation');
  assert.match(alice, /blue_square is on panel\d/);
});

test('RoCo sort_cubes, default variant: the robots tell each other their reach and goal in the dialog, then plan, and the episode succeeds', () => {
  assert.equal(paper.run.reason, 'reward_positive', paper.run.message);
  const round1 = paper.calls.filter((c) => c.round === 1);
  const said = (agent: string) => paper.answers.get(round1.find((c) => c.agent === agent)!.callId) ?? '';
  assert.match(said('Alice'), /I can reach panel1, panel2, panel3\./);
  assert.match(said('Bob'), /My goal is to place pink_polygon on panel4\. I can reach panel3, panel4, panel5\./);
  assert.match(said('Chad'), /I can reach panel5, panel6, panel7\./);
  // Alice cannot plan for the team before she has heard the others: her first turn proposes nothing.
  assert.doesNotMatch(said('Alice'), /NAME Alice ACTION/);
  // What Bob said reaches Chad's prompt only through the chat.
  const chad = text(round1.find((c) => c.agent === 'Chad')!);
  const chat = chad.indexOf('[Current Chat]');
  assert.ok(chat > 0 && chad.indexOf('reach panel3, panel4, panel5') > chat, "Bob's reach appears in Chad's prompt only inside the chat");
});

test('RoCo sort_cubes, waypoint variant: the shared goals and reach, the strategy rule and the positions come back', async () => {
  const w = await record('waypoint', { maxRounds: 1 });
  const alice = text(w.calls.find((c) => c.agent === 'Alice')!);
  assert.deepEqual(OTHERS.filter((p) => alice.includes(p)), OTHERS);
  assert.ok(alice.includes(STRATEGY));
  assert.match(alice, /based at \(/);
  assert.match(alice, /blue_square is on panel\d, at \(/);
  // Told everything, Alice proposes on her first turn.
  assert.match(w.answers.get(w.calls.find((c) => c.agent === 'Alice')!.callId) ?? '', /NAME Alice ACTION/);
});
