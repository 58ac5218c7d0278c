// "Waypoint: Check Model Endpoint": runs `waypoint doctor` (dist/cli.mjs) on the configured model and shows its
// lines in the "Waypoint: Model Endpoint" output as they come. The key comes from SecretStorage and reaches the
// child in its environment (doctorInvocation.ts); all the probing and judging is the CLI's (src/core/llm/doctor).
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import * as vscode from 'vscode';
import type { Ctx } from '../ctx.js';
import { doctorInvocation, type DoctorEndpoint } from '../doctorInvocation.js';
import type { LmBridge } from '../lm/lmBridge.js';
import { architectureSources } from '../architectureWatch.js';
import { architectureEnv } from '../workspaceArchitectures.js';

const CHANNEL = 'Waypoint: Model Endpoint';
let channel: vscode.OutputChannel | undefined;

/** Resolves with the doctor's exit status and output (tests and scripts read them), undefined when it could not start. */
export async function checkModelEndpoint(ctx: Ctx, bridge: LmBridge): Promise<{ exitCode: number | null; output: string } | undefined> {
  const model = ctx.config.settings.model;
  let endpoint: DoctorEndpoint;
  if (model.provider === 'openai') endpoint = { kind: 'openai', key: await ctx.keys.get(model.baseUrl) };
  else if (model.provider === 'vscode-lm') endpoint = { kind: 'vscode-lm', ...(await bridge.endpoint(model.vscodeLm)) };
  else endpoint = { kind: 'reference' };
  const inv = doctorInvocation(model, endpoint);
  const args = [...inv.args, '--advice', endpoint.kind === 'vscode-lm' ? 'none' : 'vscode'];

  if (!channel) {
    channel = vscode.window.createOutputChannel(CHANNEL);
    ctx.push(channel);
  }
  const out = channel;
  out.clear();
  out.show(true);
  out.appendLine(inv.intro);
  out.appendLine('');
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Waypoint: checking the model endpoint…', cancellable: true }, (_progress, token) =>
    new Promise((resolve) => {
      // VS Code desktop's process.execPath is Electron: run it as plain Node (code-server's is Node already).
      const child = spawn(process.execPath, [ctx.asset('dist', 'cli.mjs'), ...args], {
        cwd: ctx.workspaceRoot() ?? tmpdir(),
        env: { ...process.env, ELECTRON_RUN_AS_NODE: '1', ...architectureEnv(architectureSources(ctx)), ...inv.env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      const take = (s: string) => {
        output += s;
        out.append(s);
      };
      child.stdout.setEncoding('utf8').on('data', take);
      child.stderr.setEncoding('utf8').on('data', take);
      const cancel = token.onCancellationRequested(() => child.kill('SIGTERM'));
      child.on('error', (err) => {
        cancel.dispose();
        out.appendLine(`could not start the check: ${err.message}`);
        resolve(undefined);
      });
      child.on('close', (code) => {
        cancel.dispose();
        const what = code === 0 ? 'chat completions work' : code === 3 ? 'chat completions do not work' : token.isCancellationRequested ? 'cancelled' : 'the check could not run';
        void (code === 0 ? vscode.window.showInformationMessage : vscode.window.showWarningMessage)(`Waypoint: ${what} (see the "${CHANNEL}" output).`);
        resolve({ exitCode: code, output });
      });
    }),
  );
}
