// `waypoint demo` (what `npm run demo` runs): starts `waypoint serve-model` as its own process, then runs MALMM on
// stack_blocks against it through the openai SDK, so the demo exercises the same HTTP client path as a real model.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { runCommand } from './run.js';

/**
 * `waypoint demo --flawed`: the reference-flawed profile on an episode where the Coder's block fails with a NameError
 * and its retry fixes it, so the run viewer's retry diff has something to show from a live run; the episode still
 * succeeds. The plain demo stays on the competent profile: its trace is the baseline the benchmarks measure.
 * test/unit/core/llm/reference/malmmEpisodes.test.ts checks that this episode keeps showing a fixed retry.
 */
export const FLAWED_DEMO = { task: 'stack_blocks', seed: 0, model: 'reference-flawed' } as const;

export async function demoCommand(rest: string[]): Promise<number> {
  const cli = fileURLToPath(import.meta.url);
  const server = spawn(process.execPath, [cli, 'serve-model', '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const url = await new Promise<string>((resolveUrl, reject) => {
      const lines = createInterface({ input: server.stdout! });
      lines.on('line', (line) => {
        process.stdout.write(`[serve-model] ${line}\n`);
        const m = /listening on (http:\/\/\S+)/.exec(line);
        if (m) resolveUrl(m[1]);
      });
      server.once('exit', (code) => reject(new Error(`serve-model exited (code ${code}) before it was listening`)));
      server.once('error', reject);
    });
    const flawed = rest.includes('--flawed');
    const seed = /--seed[= ](\d+)/.exec(rest.join(' '))?.[1] ?? String(flawed ? FLAWED_DEMO.seed : 0);
    const task = /--task[= ](\S+)/.exec(rest.join(' '))?.[1] ?? (flawed ? FLAWED_DEMO.task : 'stack_blocks');
    return await runCommand({ arch: 'malmm', task, seed, model: flawed ? FLAWED_DEMO.model : 'reference', 'base-url': url, verbose: rest.includes('--verbose') });
  } finally {
    server.kill('SIGTERM');
  }
}
