// The LM Trajectory Generators pipeline (Kwon, Di Palo, Johns; digest section 3): one main conversation plans in
// stages, detects objects, then writes Python (or, in the numeric mode, numbers) that builds dense pose lists.
// Every block runs in order; a print-out or an error stops the answer there and goes back as the authors'
// feedback text; errors in a row past maxErrorCorrections end the episode as a format failure. When the model
// calls task_completed(), a fresh success-detector call reads the detected objects' pose tracks and answers
// task_completed() or task_failed(); on failure the main conversation summarises the attempt, the arm returns to
// its start (objects stay where they are, as in the authors' code) and a new instance re-plans with the summary.
// The poses run open loop: the robot API's execution notes (grasp results, collisions, shortfalls) are not fed
// back unless the api.execution_feedback ablation is on; the trace's code_execution keeps them for the person.
import type { ChatMessage, PendingEvent } from '../../protocol/trace.js';
import { limitFlag, limitNumber } from '../../core/architecture/limits.js';
import type { ArchOutcome, EpisodeContext } from '../../core/architecture/types.js';
import {
  claimsCompleted,
  detectTags,
  errorCorrectionFeedback,
  parseVerdict,
  printOutputFeedback,
  parseCodeBlocks,
  trajectoryErrorFeedback,
  trajectoryTags,
  withoutExecutionFeedback,
} from './parse.js';
import { formatDetectorTracks, objectOfLabel, subsample, type DetectorTrack } from './tracks.js';

/** The check event's name for a success-detector verdict (its view reads it). */
export const SUCCESS_DETECTION_CHECK = 'success_detection';

const r3 = (v: number) => (Math.abs(v) < 5e-4 ? 0 : v).toFixed(3);
const fmtPos = (p: readonly number[]) => `[${p.map(r3).join(', ')}]`;

interface Counters {
  attempts: number;
  replans: number;
  errorCorrections: number;
  codeBlocks: number;
  detections: number;
  trajectories: number;
  poses: number;
  detectorCalls: number;
  detectorFailedVerdicts: number;
}

/** What one attempt ended with. */
type AttemptEnd =
  | { kind: 'claimed' }
  | { kind: 'outcome'; outcome: Omit<ArchOutcome, 'metrics'> }
  | { kind: 'turn_cap' };

export async function runTrajgen(ctx: EpisodeContext): Promise<ArchOutcome> {
  const maxTurns = limitNumber(ctx.limits, 'maxTurns');
  const maxErrors = limitNumber(ctx.limits, 'maxErrorCorrections');
  const replanning = limitFlag(ctx.limits, 'replanning');
  const maxReplans = limitNumber(ctx.limits, 'maxReplans');
  const every = limitNumber(ctx.limits, 'trackEvery');
  const numeric = ctx.agent === 'numbers';
  const executionFeedback = ctx.ablations['api.execution_feedback'] === true;
  /** What the model reads of a block's output: without the API's execution notes unless the ablation is on. */
  const shown = (stdout: string) => (executionFeedback ? stdout : withoutExecutionFeedback(stdout));
  const c: Counters = { attempts: 0, replans: 0, errorCorrections: 0, codeBlocks: 0, detections: 0, trajectories: 0, poses: 0, detectorCalls: 0, detectorFailedVerdicts: 0 };
  const done = (o: Omit<ArchOutcome, 'metrics'>): ArchOutcome => ({ ...o, metrics: { ...c } });
  const objectNames = ctx.initial.state.objects.map((o) => o.name);
  const start = ctx.initial.state.ee;
  let failureSummary: string | undefined;

  for (;;) {
    c.attempts++;
    const attempt = c.attempts;
    ctx.setAgent(undefined);
    const mark = ctx.markTracks();
    const ee = attempt === 1 ? start : (await ctx.observe()).state.ee;
    const vars: Record<string, unknown> = {
      task: ctx.task.instruction,
      ee_position: fmtPos(ee.pos),
      numpy: ctx.options.codeRunner === 'host-python',
      ...(failureSummary ? { failure_summary: failureSummary } : {}),
    };
    /** The conversation after the system prompt: the model's answers and the feedback. */
    const conv: ChatMessage[] = [];
    let lastSent: ChatMessage[] = [];
    /** detect_object queries and the labels they printed, in order (the detector tracks these objects). */
    const detected = new Map<string, string>();
    let errorsInRow = 0;
    let end: AttemptEnd | undefined;

    const feedBack = async (text: string) => {
      conv.push({ role: 'user', content: text });
      await ctx.say('Environment', text);
    };
    const noteDetections = (apiCalls: { fn: string; args: unknown[]; ok: boolean }[], stdout: string) => {
      for (const call of apiCalls) if (call.fn === 'detect_object') c.detections++;
      for (const m of stdout.matchAll(/^Position of ([^:\n]+):/gm)) {
        const obj = objectOfLabel(m[1]!.trim(), objectNames);
        if (obj && !detected.has(obj)) detected.set(obj, m[1]!.trim());
      }
    };

    for (let turnInAttempt = 0; end === undefined; turnInAttempt++) {
      if (ctx.signal.aborted) return done({ reason: 'cancelled', agentClaimedDone: false });
      if (turnInAttempt >= maxTurns) {
        end = { kind: 'turn_cap' };
        break;
      }
      const turn = ctx.nextTurn();
      const r = await ctx.callRole('main', vars, conv);
      if (!r.ok) return done({ reason: 'cancelled', agentClaimedDone: false });
      lastSent = r.sent ?? lastSent;
      conv.push({ role: 'assistant', content: r.text });
      await ctx.say('main', r.text);

      const error = async (feedback: string, why: string): Promise<boolean> => {
        errorsInRow++;
        c.errorCorrections++;
        if (errorsInRow > maxErrors) {
          end = { kind: 'outcome', outcome: { reason: 'format_failure', agentClaimedDone: false, message: `${errorsInRow} failed answers in a row (error-correction limit ${maxErrors}); the last: ${why}` } };
          return true;
        }
        await feedBack(feedback);
        return false;
      };

      if (numeric) {
        const queries = detectTags(r.text);
        const trajectories = trajectoryTags(r.text);
        const completed = claimsCompleted(r.text);
        await ctx.parsed('main', r.callId, turn, { ok: true, kind: 'numeric', value: { detect: queries, trajectories: trajectories.length, completed } });
        const printed: string[] = [];
        for (const q of queries) {
          const res = await ctx.act(ctx.agents[0] ?? 'robot', { name: 'detect_object', args: [q] });
          c.detections++;
          const out = res.ok ? (res.output ?? '') : `detect_object: ${res.error}`;
          printed.push(out);
          noteDetections([], out);
        }
        if (printed.length > 0) {
          errorsInRow = 0;
          await feedBack(printOutputFeedback(printed.join('\n')));
          continue;
        }
        let failed = false;
        const notes: string[] = [];
        for (let i = 0; i < trajectories.length && !failed; i++) {
          const t = trajectories[i]!;
          c.codeBlocks++;
          if (!t.ok) {
            await ctx.parsed('main', r.callId, turn, { ok: false, kind: 'trajectory', error: t.error });
            failed = true;
            if (await error(trajectoryErrorFeedback(i + 1, t.error), t.error)) break;
            continue;
          }
          const res = await ctx.act(ctx.agents[0] ?? 'robot', { name: 'execute_trajectory', args: [t.value] });
          c.trajectories++;
          c.poses += t.value.length;
          if (!res.ok) {
            failed = true;
            if (await error(trajectoryErrorFeedback(i + 1, `RuntimeError: ${res.error ?? 'execute_trajectory failed'}`), res.error ?? 'execute_trajectory failed')) break;
          } else if (res.output && shown(res.output) !== '') notes.push(shown(res.output));
        }
        if (failed) continue;
        if (trajectories.length === 0 && !completed) {
          const why = 'the answer has no <detect_object> tag, no <trajectory> block and no [task_completed]';
          await ctx.parsed('main', r.callId, turn, { ok: false, kind: 'numeric', error: why });
          if (await error(trajectoryErrorFeedback(1, why), why)) break;
          continue;
        }
        errorsInRow = 0;
        if (completed) end = { kind: 'claimed' };
        else await feedBack(`The trajectory was executed.\n${notes.length > 0 ? `${notes.join('\n')}\n` : ''}`);
        continue;
      }

      // Code output: run the answer's blocks in order; a print-out or an error stops it there.
      const read = parseCodeBlocks(r.text);
      if (!read.ok) {
        const why = read.error;
        await ctx.parsed('main', r.callId, turn, { ok: false, kind: 'code', error: why });
        if (await error(`Your previous response had no code block marked with the \`\`\`python and \`\`\` tags, so nothing was run. Continue with your plan, writing the code in such a block.\n`, why)) break;
        continue;
      }
      const blocks = read.value;
      await ctx.parsed('main', r.callId, turn, { ok: true, kind: 'code', value: blocks });
      let stop: 'error' | 'print' | 'completed' | undefined;
      for (let i = 0; i < blocks.length && stop === undefined; i++) {
        const run = await ctx.executeCode('main', blocks[i]!);
        c.codeBlocks++;
        for (const call of run.result.apiCalls) {
          if (call.fn === 'execute_trajectory' && call.ok) {
            c.trajectories++;
            c.poses += Array.isArray(call.args[0]) ? call.args[0].length : 0;
          }
        }
        const stdout = shown(run.result.stdout.replace(/^Stopping the process\.+\s*$/gm, '')).replace(/\s+$/, '');
        noteDetections(run.result.apiCalls, stdout);
        if (!run.result.ok) {
          stop = 'error';
          const e = run.result.error;
          const text = e ? `${e.type}: ${e.message}${e.line ? ` (line ${e.line})` : ''}` : `exit code ${run.result.exitCode}`;
          if (await error(errorCorrectionFeedback(i + 1, text), text)) break;
        } else if (run.completed) {
          stop = 'completed';
        } else if (stdout !== '') {
          stop = 'print';
          errorsInRow = 0;
          await feedBack(printOutputFeedback(stdout));
        }
      }
      if (stop === 'completed') {
        errorsInRow = 0;
        end = { kind: 'claimed' };
      } else if (stop === undefined) {
        errorsInRow = 0;
        await feedBack('The code ran without printing anything.\n');
      }
    }

    // Set inside the answer loop (and its error helper), which TypeScript cannot follow.
    const ended = end as AttemptEnd | undefined;
    if (ended === undefined) return done({ reason: 'cancelled', agentClaimedDone: false });
    if (ended.kind === 'outcome') return done(ended.outcome);
    if (ended.kind === 'turn_cap') {
      return done({ reason: 'turn_cap', agentClaimedDone: false, message: `attempt ${attempt} stopped at the cap of ${maxTurns} main answers` });
    }
    if (!replanning) return done({ reason: 'task_completed', agentClaimedDone: true });

    // Success detection: a fresh call over the detected objects' tracks since the attempt began.
    const names = detected.size > 0 ? [...detected.keys()] : objectNames;
    const raw = ctx.tracks(mark, names);
    const tracks: DetectorTrack[] = raw.map((t) => subsample(t, every, detected.get(t.name) ?? t.name));
    // A scene with no objects (a figure drawn with the closed gripper) leaves the detector the gripper's own track
    // to judge, instead of nothing: without it no track could confirm or contradict the command.
    if (names.length === 0) tracks.push(subsample(ctx.toolTrack(mark), every, 'gripper'));
    const tracksText = formatDetectorTracks(tracks);
    const dTurn = ctx.nextTurn();
    c.detectorCalls++;
    const d = await ctx.callRole('detector', { task: ctx.task.instruction, tracks: tracksText }, []);
    if (!d.ok) return done({ reason: 'cancelled', agentClaimedDone: false });
    const verdict = parseVerdict(d.text);
    await ctx.parsed('detector', d.callId, dTurn, verdict.ok ? { ok: true, kind: 'verdict', value: verdict.value } : { ok: false, kind: 'verdict', error: verdict.error });
    // An unreadable verdict counts as a failure (the episode is not declared a success on no evidence).
    const ok = verdict.ok && verdict.value === 'completed';
    // The verdict as a check, with the tracks the detector read (loose fields, docs/trace.md) for its view.
    await ctx.emit({
      type: 'check',
      turn: dTurn,
      name: SUCCESS_DETECTION_CHECK,
      ok,
      message: verdict.ok ? `attempt ${attempt}: the success detector answered task_${verdict.value}()` : `attempt ${attempt}: unreadable verdict (${verdict.error}), taken as a failure`,
      callId: d.callId,
      attempt,
      verdict: verdict.ok ? verdict.value : 'unreadable',
      tracks,
    } as PendingEvent);
    if (ok) return done({ reason: 'detector_completed', agentClaimedDone: true, message: `the success detector answered task_completed() on attempt ${attempt}` });
    c.detectorFailedVerdicts++;
    if (c.replans >= maxReplans) {
      return done({ reason: 'detector_failed', agentClaimedDone: true, message: `the success detector answered task_failed() on attempt ${attempt}; no re-plan left (maxReplans ${maxReplans})` });
    }

    // Task summary in the main conversation, then a new instance with the failure prompt.
    const sTurn = ctx.nextTurn();
    const s = await ctx.callRole('summary', { attempt }, [...lastSent, { role: 'assistant', content: conv[conv.length - 1]?.content ?? '' }]);
    if (!s.ok) return done({ reason: 'cancelled', agentClaimedDone: false });
    await ctx.parsed('summary', s.callId, sTurn, { ok: true, kind: 'summary', value: s.text });
    await ctx.say('summary', s.text);
    failureSummary = s.text;
    c.replans++;
    await returnToStart(ctx, start.pos);
  }
}

/** The arm back to its start pose with the gripper open (the authors reset the robot, not the objects). */
async function returnToStart(ctx: EpisodeContext, pos: readonly number[]): Promise<void> {
  const agent = ctx.agents[0] ?? 'robot';
  await ctx.act(agent, { name: 'open_gripper', args: [] }, { origin: 'loop' });
  const here = (await ctx.observe()).state.ee;
  const from = [...here.pos, here.yawRad];
  const to = [pos[0]!, pos[1]!, pos[2]!, 0];
  // Up first, so the way back does not sweep across the objects.
  const up = [from[0]!, from[1]!, Math.max(from[2]!, to[2]!), from[3]!];
  const line = (a: number[], b: number[], n: number) => Array.from({ length: n }, (_, i) => a.map((v, k) => v + ((b[k]! - v) * (i + 1)) / n));
  await ctx.act(agent, { name: 'execute_trajectory', args: [[...line(from, up, 40), ...line(up, to, 60)]] }, { origin: 'loop' });
}
