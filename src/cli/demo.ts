// `waypoint demo` (what `npm run demo` runs): starts `waypoint serve-model` as its own process, then runs MALMM on
// stack_blocks against it through the openai SDK, so the demo exercises the same HTTP client path as a real model.
// The server is this process's child in every sense: it is stopped when the demo ends, is interrupted or loses
// its stdout, and it stops by itself if the demo dies without a word (its IPC channel closes).
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { WORKSPACE_OPTIONS } from './commonOptions.js';
import { ownChild, shutdownExitStatus, whileCleaningUp } from './lifecycle.js';
import { defineCommand, parseCommandArgs } from './options.js';
import { RUN_EXIT_HELP, RUN_OPTIONS, runCmd, runCommand } from './run.js';

/**
 * `waypoint demo --flawed`: the reference-flawed profile on an episode where the Coder's block fails with a NameError
 * and its retry fixes it, so the run viewer's retry diff has something to show from a live run; the episode still
 * succeeds. The plain demo stays on the competent profile: its trace is the baseline the benchmarks measure.
 * test/unit/architectures/malmm/reference/malmmEpisodes.test.ts checks that this episode keeps showing a fixed retry.
 */
export const FLAWED_DEMO = { task: 'stack_blocks', seed: 9, model: 'reference-flawed' } as const;
const PLAIN_DEMO = { task: 'stack_blocks', seed: 0, model: 'reference' } as const;

function demoDefault(k: 'task' | 'seed'): string {
  return PLAIN_DEMO[k] === FLAWED_DEMO[k] ? String(PLAIN_DEMO[k]) : `${PLAIN_DEMO[k]} (with --flawed: ${FLAWED_DEMO[k]})`;
}

// task and seed have no declared default: with --flawed they default to FLAWED_DEMO's episode.
export const DEMO_OPTIONS = {
  flawed: { type: 'boolean', group: 'Model', help: 'use reference-flawed (seeded mistakes): a block fails with a NameError and its retry fixes it' },
  task: { ...RUN_OPTIONS.task, default: undefined, defaultText: demoDefault('task') },
  seed: { ...RUN_OPTIONS.seed, default: undefined, defaultText: demoDefault('seed') },
  verbose: RUN_OPTIONS.verbose,
  quiet: RUN_OPTIONS.quiet,
  ...WORKSPACE_OPTIONS,
} as const;

export const demoCmd = defineCommand({
  name: 'demo',
  summary: 'MALMM stacks blocks, solved by the reference model (a scripted policy, not an LLM) over a local endpoint',
  description:
    'Starts `waypoint serve-model` on a free loopback port, runs `waypoint run --arch malmm` against it through the openai SDK, and stops the server. Needs no network and no API key.',
  options: DEMO_OPTIONS,
  exitStatus: RUN_EXIT_HELP,
  run: ({ values }) =>
    whileCleaningUp(async (signal) => {
      const cli = fileURLToPath(import.meta.url);
      const server = ownChild(spawn(process.execPath, [cli, 'serve-model', '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] }));
      const stopped = new Promise<void>((r) => server.once('exit', () => r()));
      try {
        const url = await new Promise<string | undefined>((resolveUrl, reject) => {
          const lines = createInterface({ input: server.stdout! });
          lines.on('line', (line) => {
            process.stdout.write(`[serve-model] ${line}\n`);
            const m = /listening on (http:\/\/\S+)/.exec(line);
            if (m) resolveUrl(m[1]);
          });
          server.once('exit', (code) => reject(new Error(`serve-model exited (code ${code}) before it was listening`)));
          server.once('error', reject);
          signal.addEventListener('abort', () => resolveUrl(undefined), { once: true });
        });
        if (!url) return shutdownExitStatus() ?? 130;
        // Every other run option at its declared default (new options need no change here).
        const defaults = parseCommandArgs(runCmd, []);
        if (defaults.help) return 0;
        const demo = values.flawed ? FLAWED_DEMO : PLAIN_DEMO;
        const { flawed: _flawed, ...runValues } = values;
        return await runCommand({
          ...defaults.values,
          ...runValues,
          task: values.task ?? demo.task,
          seed: values.seed ?? demo.seed,
          arch: 'malmm',
          model: demo.model,
          'base-url': url,
        });
      } finally {
        if (server.exitCode === null && server.signalCode === null) {
          server.kill('SIGTERM');
          await stopped;
        }
      }
    }),
});
