// The CaP loop: render the task and the objects' coordinates into the policy prompt, take the program from the
// answer, run it once in the sandbox against the simulator, and let the task's own check decide. No feedback and
// no retry: that is the baseline as MALMM ran it.
import type { ArchOutcome, EpisodeContext } from 'waypoint/architecture';

const f4 = (x: number) => (Math.abs(x) < 5e-5 ? 0 : x).toFixed(4);

/** The program in the answer: the last fenced block (```python or bare ```), else the whole answer as CaP's raw code. */
export function programOf(text: string): { ok: true; code: string } | { ok: false; error: string } {
  const fenced = [...text.matchAll(/```(?:python|py)?[ \t]*\r?\n([\s\S]*?)```/gi)].map((m) => m[1]!);
  const code = (fenced.length > 0 ? fenced[fenced.length - 1]! : text).replace(/\s+$/, '');
  if (code.trim() === '') return { ok: false, error: 'the answer holds no code' };
  return { ok: true, code: code + '\n' };
}

export async function runCap(ctx: EpisodeContext): Promise<ArchOutcome> {
  const ws = ctx.workspace;
  const ee = ctx.initial.state.ee;
  const variables = {
    task: ctx.task.instruction,
    objects: ctx.render(ctx.initial),
    ee_position: `[${ee.pos.map(f4).join(' ')}]`,
    table_top_z: f4(ws.tableTopZ),
    x_range: `[${ws.xRange[0]}, ${ws.xRange[1]}]`,
    y_range: `[${ws.yRange[0]}, ${ws.yRange[1]}]`,
    axes: ws.axes,
    api: ctx.api.map((f) => ({ signature: f.signature, doc: f.doc })),
  };
  const turn = ctx.nextTurn();
  const answer = await ctx.callRole('policy', variables, []);
  if (!answer.ok) return { reason: 'cancelled', agentClaimedDone: false, message: answer.message };
  await ctx.say('Policy', answer.text);
  const program = programOf(answer.text);
  if (!program.ok) {
    await ctx.parsed('policy', answer.callId, turn, { ok: false, kind: 'code', error: program.error });
    return { reason: 'single_pass_done', agentClaimedDone: false, message: program.error };
  }
  await ctx.parsed('policy', answer.callId, turn, { ok: true, kind: 'code', value: program.code });
  ctx.nextTurn();
  const run = await ctx.executeCode('policy', program.code);
  if (run.completed) return { reason: 'task_completed', agentClaimedDone: true };
  if (run.failed) return { reason: 'task_failed', agentClaimedDone: false, message: 'the program called task_failed()' };
  return { reason: 'single_pass_done', agentClaimedDone: false, message: run.result.ok ? 'the program ran once' : `the program stopped: ${run.result.error?.message ?? 'error'}` };
}
