// The LM Trajectory Generators loop end to end through the engine, the real Pyodide sandbox and the MuJoCo
// tabletop: a failure verdict from the (scripted) success detector reading real object tracks, the summary and a
// successful re-plan; the bad inputs the paper's error feedback handles (a pose of length 3, NaN, a <trajectory>
// block that is not a list), each fed back, counted, and a format failure past the limit; and open-loop execution:
// the robot API's execution notes reach the model only with the api.execution_feedback ablation.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { architectures } from '../../../../src/architectures/registry.js';
import { DEFAULT_EPISODE_OPTIONS, runEpisode, type EpisodeResult } from '../../../../src/core/engine/episode.js';
import type { ModelClient, ModelRequest, ModelResult } from '../../../../src/core/llm/client.js';
import { trajgenDetector } from '../../../../src/architectures/trajgen/reference/detector.js';
import { trajgenMain } from '../../../../src/architectures/trajgen/reference/main.js';
import { trajgenSummary } from '../../../../src/architectures/trajgen/reference/summary.js';
import { nodeIO } from '../../../../src/core/node/nodeHost.js';
import { resolveVariant, type VariantSpec } from '../../../../src/core/prompt/variants.js';
import { createPyodideSandbox } from '../../../../src/core/sandbox/index.js';
import type { CodeSandbox } from '../../../../src/core/sandbox/sandbox.js';
import { createTabletopSimulator } from '../../../../src/core/sim/mujoco/index.js';
import type { Simulator } from '../../../../src/core/sim/simulator.js';
import { MemoryTraceSink } from '../../../../src/core/trace/writer.js';
import type { ChatMessage, TraceEvent } from '../../../../src/protocol/trace.js';

const clock = { nowMs: () => performance.now(), isoNow: () => '2026-11-25T00:00:00.000Z' };
const arch = architectures.get('trajgen');
const promptPaths = Object.fromEntries(arch.roles.map((r) => [r.id, join(process.cwd(), 'src', 'architectures', 'trajgen', 'prompts', r.promptFile)]));
let sim: Simulator;
let sandbox: CodeSandbox;
before(async () => {
  sim = await createTabletopSimulator();
  sandbox = createPyodideSandbox();
  await sandbox.warmUp();
});
after(async () => {
  await sandbox.close();
  await sim.close();
});

/** Answers by role from functions of the messages (as the reference model's policies decide), keeping each request. */
class Scripted implements ModelClient {
  readonly id = 'scripted';
  readonly requests: ModelRequest[] = [];
  constructor(private readonly byRole: Record<string, (messages: ChatMessage[]) => string>) {}
  async complete(request: ModelRequest): Promise<ModelResult> {
    this.requests.push(request);
    const fn = this.byRole[request.meta?.role ?? ''];
    if (!fn) return { ok: false, error: { kind: 'bad_request', message: `no answer for role ${request.meta?.role}` }, latencyMs: 0, cached: false, attempts: 1 };
    return { ok: true, text: fn(request.messages), latencyMs: 0, cached: false, attempts: 1 };
  }
}

async function episode(task: string, model: ModelClient, opts: { limits?: Record<string, unknown>; variant?: string; variants?: Record<string, VariantSpec>; persistNamespace?: boolean } = {}): Promise<{ result: EpisodeResult; events: TraceEvent[] }> {
  const sink = new MemoryTraceSink();
  const result = await runEpisode(
    {
      runId: 'trajgen-loop',
      arch,
      task,
      seed: 0,
      variant: resolveVariant(opts.variant ?? 'default', { active: 'default', variants: opts.variants ?? {} }, arch.builtInVariants),
      promptPaths,
      options: { ...DEFAULT_EPISODE_OPTIONS, limits: opts.limits ?? {}, ...(opts.persistNamespace !== undefined ? { persistNamespace: opts.persistNamespace } : {}) },
      model: { provider: 'replay', model: 'scripted', label: 'scripted test answers' },
    },
    { io: nodeIO, clock, sim, sandbox, model, sink },
  );
  return { result, events: sink.events };
}

const of = <T extends TraceEvent['type']>(events: TraceEvent[], type: T) => events.filter((e): e is Extract<TraceEvent, { type: T }> => e.type === type);
const reference = { profile: 'reference' as const };
const hasPrintOut = (m: ChatMessage[]) => m.some((x) => x.role === 'user' && x.content.includes('Position of'));

test('trajgen: the detector reads the tracks and fails attempt 1, the summary goes to the new instance, the re-plan succeeds', async () => {
  const model = new Scripted({
    // Attempt 1 detects, then claims completion without moving; the re-planned attempt writes the real solution.
    main: (m) => {
      const replan = m[0]!.content.includes('SUMMARY OF PREVIOUS FAILED ATTEMPTS');
      if (!replan && hasPrintOut(m)) return 'INITIAL PLANNING 2:\nThe can is already where it should be.\n```python\ntask_completed()\n```';
      return trajgenMain(m, reference);
    },
    detector: (m) => trajgenDetector(m, reference),
    summary: (m) => `ATTEMPT SUMMARY: ${trajgenSummary(m, reference).split('\n')[1]}`,
  });
  const { result, events } = await episode('push_can', model);
  assert.equal(result.reason, 'detector_completed', result.message);
  assert.equal(result.success, true, 'the simulator check passes after the re-plan');
  const m = result.end.archMetrics!;
  assert.equal(m['attempts'], 2);
  assert.equal(m['replans'], 1);
  assert.equal(m['detectorCalls'], 2);
  assert.equal(m['detectorFailedVerdicts'], 1);

  const verdicts = of(events, 'check').filter((c) => c.name === 'success_detection') as (Extract<TraceEvent, { type: 'check' }> & { verdict: string; tracks: { query: string; pos: number[][] }[] })[];
  assert.deepEqual(verdicts.map((v) => [v.ok, v.verdict]), [[false, 'failed'], [true, 'completed']]);
  // The detector read the detected objects' tracks (the query text the model used), in the authors' format.
  assert.deepEqual(verdicts[0]!.tracks.map((t) => t.query).sort(), ['can']);
  const detectorRequests = model.requests.filter((r) => r.meta?.role === 'detector');
  assert.match(detectorRequests[0]!.messages.map((x) => x.content).join('\n'), /^can trajectory positions and orientations:\nPositions:\n\[\[/m);
  // The can did not move in attempt 1; it slid to the right (+x) in attempt 2.
  const spanX = (t: { pos: number[][] }) => t.pos[t.pos.length - 1]![0]! - t.pos[0]![0]!;
  assert.ok(Math.abs(spanX(verdicts[0]!.tracks.find((t) => t.query === 'can')!)) < 0.005);
  assert.ok(spanX(verdicts[1]!.tracks.find((t) => t.query === 'can')!) > 0.05);

  // The summary was asked in the main conversation (its system prompt and answers), and reached the new instance.
  const summaryReq = model.requests.find((r) => r.meta?.role === 'summary')!;
  assert.match(summaryReq.messages[0]!.content, /^You are in charge of a robot arm/);
  assert.ok(summaryReq.messages.some((x) => x.role === 'assistant' && x.content.includes('task_completed()')));
  assert.match(summaryReq.messages[summaryReq.messages.length - 1]!.content, /^The task was not completed successfully/);
  const mains = model.requests.filter((r) => r.meta?.role === 'main');
  const replanned = mains.find((r) => r.messages[0]!.content.includes('SUMMARY OF PREVIOUS FAILED ATTEMPTS'))!;
  assert.match(replanned.messages[0]!.content, /SUMMARY OF PREVIOUS FAILED ATTEMPTS:\nATTEMPT SUMMARY: [\s\S]*PROBLEM RESOLUTION:/);
  assert.equal(replanned.messages.length, 1, 'a new instance: only the system prompt');
  // In the trace: the failure verdict, then the summary's role call, then the re-planned main call.
  const order = events.filter((e) => (e.type === 'check' && e.name === 'success_detection') || (e.type === 'role_call' && (e.role === 'summary' || e.role === 'main')));
  const labels = order.map((e) => (e.type === 'check' ? `verdict:${e.ok}` : (e as { role: string }).role));
  const firstFail = labels.indexOf('verdict:false');
  assert.deepEqual(labels.slice(firstFail, firstFail + 3), ['verdict:false', 'summary', 'main']);
  // The arm went back to its start between attempts (actions traced by the loop).
  assert.ok(of(events, 'action').some((a) => a.actions[0]!.name === 'execute_trajectory'));
});

const detectFirst = (m: ChatMessage[]) => (hasPrintOut(m) ? undefined : '```python\ndetect_object("can")\n```');

for (const [label, code, pattern] of [
  ['a pose of length 3', 'execute_trajectory([[0.0, 0.1, 1.0]])', /expects every pose as \[x, y, z, yaw\]; pose 0 is \[0, 0\.1, 1\]/],
  ['a pose list with NaN', 'execute_trajectory([[0.0, 0.1, 1.0, 0.0], [0.0, 0.1, float("nan"), 0.0]])', /must be finite/],
] as const) {
  test(`trajgen: ${label} gets the paper's error feedback, is counted, and ends the episode as a format failure past the limit`, async () => {
    const model = new Scripted({ main: (m) => detectFirst(m) ?? `Trying again.\n\`\`\`python\n${code}\n\`\`\`` });
    const { result, events } = await episode('push_can', model, { limits: { maxErrorCorrections: 2 } });
    assert.equal(result.reason, 'format_failure', result.message);
    assert.equal(result.end.archMetrics?.['errorCorrections'], 3);
    const feedback = of(events, 'chat_message').filter((c) => c.speaker === 'Environment' && c.content.startsWith('Running code block 1 of your previous response resulted in the following error:'));
    assert.equal(feedback.length, 2, 'two corrections asked for; the third error ends the episode');
    assert.match(feedback[0]!.content, pattern);
    assert.match(feedback[0]!.content, /Can you output a modified code block to resolve this error\?/);
    // The feedback reached the model as the next user message.
    const lastMain = model.requests.filter((r) => r.meta?.role === 'main').pop()!;
    assert.match(lastMain.messages[lastMain.messages.length - 1]!.content, pattern);
  });
}

test('trajgen numeric mode: a <trajectory> block that is not a list gets the error feedback and ends as a format failure', async () => {
  const model = new Scripted({ main: (m) => (hasPrintOut(m) ? 'Here it is.\n<trajectory>\n{"x": 0.1}\n</trajectory>' : 'INITIAL PLANNING 1:\n<detect_object>can</detect_object>') });
  const { result, events } = await episode('push_can', model, { variant: 'numbers_trajectory', limits: { maxErrorCorrections: 1 } });
  assert.equal(result.reason, 'format_failure', result.message);
  assert.equal(result.end.archMetrics?.['errorCorrections'], 2);
  const feedback = of(events, 'chat_message').filter((c) => c.speaker === 'Environment');
  assert.match(feedback[0]!.content, /^Print statement output:\nPosition of can:/);
  assert.match(feedback[1]!.content, /^Reading trajectory 1 of your previous response resulted in the following error:\nthe <trajectory> block must be a list of poses/);
  // The numeric variant's prompt has no code rules and asks for <trajectory> tags.
  const sys = model.requests[0]!.messages[0]!.content;
  assert.match(sys, /AVAILABLE ACTIONS:/);
  assert.doesNotMatch(sys, /CODE GENERATION:/);
});

// App. F: the paper's model defines a helper in one turn and calls it in the next; the authors exec every block in
// one module's globals. Turn 1 defines `lifted` and `start` and prints (which ends the turn); turn 2 uses both.
test('trajgen: a name defined in turn 1 is defined in turn 2 (one namespace per episode, as App. F), unless the run asks for fresh blocks', async () => {
  const turn1 = '```python\ndef lifted(pose, dz):\n    return [pose[0], pose[1], pose[2] + dz, pose[3]]\nstart = [0.3, 0.0, 0.5, 0.0]\nprint("defined", lifted(start, 0.1)[2])\n```';
  const turn2 = '```python\nprint("reused", lifted(start, 0.2)[2])\ntask_completed()\n```';
  const main = (m: ChatMessage[]) => (m.some((x) => x.role === 'user' && x.content.includes('defined 0.6')) ? turn2 : turn1);
  const shared = await episode('push_can', new Scripted({ main }), { limits: { replanning: false } });
  const runs = of(shared.events, 'code_execution');
  assert.equal(runs.length, 2);
  assert.equal(runs[1]!.ok, true, `turn 2 ran: ${runs[1]!.error?.type} ${runs[1]!.error?.message}`);
  assert.match(runs[1]!.stdout, /reused 0\.7/);
  assert.equal(runs[1]!.namespacePersisted, true);
  assert.equal(of(shared.events, 'episode_start')[0]!.options.persistNamespace, true);
  assert.equal(shared.result.reason, 'task_completed');
  // The run may still ask for a fresh namespace per block: then turn 2's names are undefined.
  const fresh = await episode('push_can', new Scripted({ main }), { limits: { replanning: false, maxErrorCorrections: 1 }, persistNamespace: false });
  const freshRuns = of(fresh.events, 'code_execution');
  assert.equal(freshRuns[1]!.ok, false);
  assert.equal(freshRuns[1]!.error?.type, 'NameError');
});

// The paper runs the pose list open loop: a close_gripper on nothing and a pose out of reach are executed (best
// effort) and the model hears nothing of them; the waypoint variant's api.execution_feedback prints the notes.
const FAR: [number, number, number] = [0.1, 0.95, 0.9];
const blindTurn = `Moving.\n\`\`\`python\nclose_gripper()\nexecute_trajectory([[0.0, 0.2, 1.0, 0.0], [${FAR.join(', ')}, 0.0]])\n\`\`\``;
const openLoop = (m: ChatMessage[]) => {
  if (!hasPrintOut(m)) return '```python\ndetect_object("can")\n```';
  return m.filter((x) => x.role === 'assistant').length >= 2 ? '```python\ntask_completed()\n```' : blindTurn;
};
const distToFar = (p: readonly number[]) => Math.hypot(p[0]! - FAR[0], p[1]! - FAR[1], p[2]! - FAR[2]);

test('trajgen paper default: close_gripper on nothing and an unreachable pose raise nothing and print nothing to the model; the arm moves towards the pose', async () => {
  await sim.reset('push_can', 0, { api: 'lmtg' });
  const startEe = (await sim.observe()).state.ee.pos;
  const { result, events } = await episode('push_can', new Scripted({ main: openLoop }), { limits: { replanning: false } });
  assert.equal(result.reason, 'task_completed', result.message);
  assert.equal(result.end.archMetrics?.['errorCorrections'], 0);
  const runs = of(events, 'code_execution');
  assert.equal(runs[1]!.ok, true, `${runs[1]!.error?.type} ${runs[1]!.error?.message}`);
  // The simulator's notes stay in the trace for the person debugging...
  assert.match(runs[1]!.stdout, /^close_gripper: nothing grasped$/m);
  assert.match(runs[1]!.stdout, /^execute_trajectory: pose 1 \[0\.1000, 0\.9500, 0\.9000, 0\.0000\] unreachable .*the arm went as close as it could$/m);
  // ...but the model reads only that the code printed nothing.
  const env = of(events, 'chat_message').filter((c) => c.speaker === 'Environment').map((c) => c.content);
  assert.equal(env[1], 'The code ran without printing anything.\n');
  for (const text of chatTexts(events)) assert.doesNotMatch(text, /close_gripper:|execute_trajectory:|nothing grasped|from the last pose/);
  // Best effort: the tool ended much closer to the unreachable pose than where it started.
  const endEe = (await sim.observe()).state.ee.pos;
  assert.ok(distToFar(endEe) < distToFar(startEe) - 0.3, `from ${distToFar(startEe).toFixed(3)} m to ${distToFar(endEe).toFixed(3)} m`);
});

test('trajgen waypoint variant: api.execution_feedback prints the grasp result and the shortfall back to the model', async () => {
  const m = new Scripted({ main: openLoop });
  const { result, events } = await episode('push_can', m, { variant: 'waypoint', limits: { replanning: false } });
  assert.equal(result.reason, 'task_completed', result.message);
  const env = of(events, 'chat_message').filter((c) => c.speaker === 'Environment').map((c) => c.content);
  assert.match(env[1]!, /^Print statement output:\n/);
  assert.match(env[1]!, /^close_gripper: nothing grasped$/m);
  assert.match(env[1]!, /^execute_trajectory: pose 1 \[0\.1000, 0\.9500, 0\.9000, 0\.0000\] unreachable .*$/m);
  assert.match(env[1]!, /^execute_trajectory: stopped \d\.\d{4} m from the last pose \[0\.1000, 0\.9500, 0\.9000\]/m);
  const last = m.requests.filter((r) => r.meta?.role === 'main').pop()!;
  assert.ok(last.messages.some((x) => x.role === 'user' && x.content.includes('close_gripper: nothing grasped')));
});

test('trajgen numeric mode: an unreachable <trajectory> runs best effort; its notes follow "The trajectory was executed." only with api.execution_feedback', async () => {
  const numbers = (m: ChatMessage[]) => {
    if (!hasPrintOut(m)) return 'INITIAL PLANNING 1:\n<detect_object>can</detect_object>';
    if (m.filter((x) => x.role === 'assistant').length >= 2) return '[task_completed]';
    return `Going.\n<trajectory>\n[[0.0, 0.2, 1.0, 0.0, 0], [${FAR.join(', ')}, 0.0, 0]]\n</trajectory>`;
  };
  const numeric: VariantSpec = { description: 'numbers', agent: 'numbers', off: ['out.code_output'] };
  const variants = { numeric, numeric_notes: { ...numeric, on: ['api.execution_feedback'] } };
  const paper = await episode('push_can', new Scripted({ main: numbers }), { variant: 'numeric', variants, limits: { replanning: false } });
  assert.equal(paper.result.reason, 'task_completed', paper.result.message);
  assert.equal(paper.result.end.archMetrics?.['errorCorrections'], 0);
  const said = (events: TraceEvent[]) => of(events, 'chat_message').filter((c) => c.speaker === 'Environment').map((c) => c.content);
  assert.equal(said(paper.events)[1], 'The trajectory was executed.\n');
  const notes = await episode('push_can', new Scripted({ main: numbers }), { variant: 'numeric_notes', variants, limits: { replanning: false } });
  assert.match(said(notes.events)[1]!, /^The trajectory was executed\.\nclose_gripper: nothing grasped\n[\s\S]*execute_trajectory: pose 1 \[0\.1000, 0\.9500, 0\.9000, 0\.0000\] unreachable/);
});

/** The chat of the episode: every message the model wrote or read. */
function chatTexts(events: TraceEvent[]): string[] {
  return of(events, 'chat_message').map((c) => c.content);
}

for (const [label, answer] of [
  ['neither verdict', 'The can seems to have moved, I think it worked.'],
  ['both verdicts', '```python\ntask_completed()\ntask_failed()\n```'],
] as const) {
  test(`trajgen: a detector answer with ${label} is a failed verdict, never a success`, async () => {
    // The main conversation solves the task; the detector's answer is unreadable. With no re-plan left the episode
    // ends on the failure verdict, whatever the simulator says.
    const model = new Scripted({ main: (m) => trajgenMain(m, reference), detector: () => answer });
    const { result, events } = await episode('push_can', model, { limits: { maxReplans: 0 } });
    assert.equal(result.reason, 'detector_failed', result.message);
    assert.equal(result.end.archMetrics?.['detectorFailedVerdicts'], 1);
    const verdicts = of(events, 'check').filter((c) => c.name === 'success_detection') as (Extract<TraceEvent, { type: 'check' }> & { verdict: string })[];
    assert.deepEqual(verdicts.map((v) => [v.ok, v.verdict]), [[false, 'unreadable']]);
    assert.match(verdicts[0]!.message ?? '', /unreadable verdict .* taken as a failure/);
  });
}

test('trajgen: by default three corrections are fed back and the fourth error in a row ends the episode (the paper: up to three)', async () => {
  const model = new Scripted({ main: (m) => detectFirst(m) ?? 'Trying again.\n```python\nexecute_trajectory([[0.0, 0.1, 1.0]])\n```' });
  const { result, events } = await episode('push_can', model);
  assert.equal(result.reason, 'format_failure', result.message);
  assert.equal(result.end.archMetrics?.['errorCorrections'], 4);
  const feedback = of(events, 'chat_message').filter((c) => c.speaker === 'Environment' && c.content.includes('resulted in the following error'));
  assert.equal(feedback.length, 3);
});
