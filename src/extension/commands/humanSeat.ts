// `waypoint.runWithHuman`: a live RoCo run where the user takes one robot's seat (the paper's real-world setting,
// a person as Alice). Each of that robot's turns shows what the robot would see (scene, options, feedback, the
// others' messages) in the "Waypoint: Human Seat" output and asks for the turn in an input box; the other robots
// stay model-driven. Escape gives the seat up (the run ends cancelled). The trace marks the typed turns as human.
import * as vscode from 'vscode';
import type { Ctx } from '../ctx.js';
import type { LiveRun } from '../live/liveRun.js';
import type { LmBridge } from '../lm/lmBridge.js';
import { runLiveTest, type LiveRequest } from './live.js';

/** The robot names RoCo's agents use, in speaking order (a task has the first two, three or four). */
const ROBOTS = ['Alice', 'Bob', 'Chad', 'Dave'];

let channel: vscode.OutputChannel | undefined;

function seatChannel(ctx: Ctx): vscode.OutputChannel {
  if (!channel) {
    const c = vscode.window.createOutputChannel('Waypoint: Human Seat');
    channel = c;
    ctx.push({ dispose: () => c.dispose() });
  }
  return channel;
}

/** A typed line becomes the turn's text: `\n` starts a new line (an EXECUTE block needs one line per robot). */
export function typedTurn(text: string): string {
  return text.replace(/\\n/g, '\n').trim();
}

export async function runWithHuman(ctx: Ctx, bridge: LmBridge, request: LiveRequest & { robot?: string }): Promise<LiveRun | undefined> {
  const s = ctx.config.settings;
  // The human seat is RoCo's: with another architecture in the settings, the RoCo run takes a multi-arm task.
  const arch = request.arch ?? 'roco';
  const task = request.task ?? (s.run.architecture === arch ? s.run.task : 'sort_cubes');
  const robot =
    request.robot ??
    (await vscode.window.showQuickPick(ROBOTS, { title: `Waypoint: which robot's seat do you take (${task})?`, placeHolder: 'The other robots stay with the model' }));
  if (!robot) return undefined;
  const out = seatChannel(ctx);
  return runLiveTest(ctx, bridge, {
    ...request,
    arch,
    task,
    human: [robot],
    askHuman: async (turn) => {
      out.appendLine(`\n===== ${turn.agent}'s turn · round ${turn.round ?? '?'} · turn ${turn.turn} =====`);
      out.appendLine(turn.view);
      out.show(true);
      const typed = await vscode.window.showInputBox({
        title: `Waypoint: ${turn.agent}'s turn (round ${turn.round ?? '?'})`,
        prompt: `Speak as ${turn.agent} (what you see is in the "Waypoint: Human Seat" output). End with PROCEED, or once everyone has spoken with EXECUTE and one NAME … ACTION … line per robot; type \\n for a new line. Escape gives the seat up.`,
        placeHolder: `I am ${turn.agent}, … PROCEED`,
        ignoreFocusOut: true,
      });
      if (typed === undefined) {
        out.appendLine(`(${turn.agent}'s seat given up: the run ends cancelled)`);
        return null;
      }
      const text = typedTurn(typed);
      out.appendLine(`[${turn.agent} (you)]:\n${text}`);
      return text;
    },
  });
}
