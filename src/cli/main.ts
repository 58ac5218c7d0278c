#!/usr/bin/env node
// `waypoint`: the headless host over the engine core. Each subcommand lives in its own file.
import { parseArgs } from 'node:util';
import { runCommand, RUN_OPTIONS } from './run.js';
import { runsCommand } from './runs.js';
import { demoCommand } from './demo.js';
import { showCommand } from './show.js';
import { reportCommand } from './report.js';
import { tasksCommand } from './tasks.js';
import { serveModelCommand, serveSimCommand } from './serve.js';
import { compareCommand, COMPARE_OPTIONS } from './compare.js';
import { archsCommand } from './archs.js';
import { exportCommand, EXPORT_OPTIONS } from './export.js';
import { sceneCommand, SCENE_OPTIONS } from './scene.js';

const USAGE = `waypoint — prompt engineering and trajectory debugging for LLM robot agents

Usage:
  waypoint demo                         MALMM on stack_blocks, solved by the reference model over a local endpoint
  waypoint demo --flawed                the same with reference-flawed: a failed block and its fixed retry
  waypoint run --arch malmm --task stack_blocks --seed 0 --model reference
  waypoint run ... --model openai:<name> --base-url <url> [--api-key-env OPENAI_API_KEY]
  waypoint runs                         list past runs (newest first)
  waypoint show <run-id | trace.jsonl>  print the transcript of a recorded run
  waypoint report [run-id | trace.jsonl] [--out f.html] [--theme light]   standalone HTML run viewer
  waypoint compare --ablation <id> [--variant v] [--task t] [--seeds n] [--model m]
                                        paired sweep: each seed with the ablation on and off, then a table
  waypoint tasks [--arch <id>]          list tasks
  waypoint archs [--json]               architectures: roles, topologies, robot API, limits, end reasons
  waypoint scene <task> [--seed N] [--mjcf out.xml]
                                        the task's MuJoCo scene (MJCF, keyframe 0 = the state after reset)
  waypoint export <run> --mcap out.mcap [--ros2]
                                        the run as MCAP for Foxglove / Lichtblick (--ros2: ROS 2 transforms, for Rerun)
  waypoint export <run | sweep> --inspect out.json
                                        an Inspect AI eval log (each episode a sample)
  waypoint serve-model [--port N]       serve the reference model (scripted, not an LLM) on 127.0.0.1
  waypoint serve-sim [--ws --port N]    serve the embedded simulator over the simulator protocol (stdio default)

Run options:
  --arch <id>            architecture (malmm)
  --task <id>            task id (see \`waypoint tasks\`)
  --seed <n>             task seed (object layout), default 0
  --variant <name>       prompt variant from .waypoint/variants.yaml or built-in (malmm: malmm, ma, sa, sa_nofeedback)
  --model <m>            reference | reference-flawed (scripted, not LLMs) | openai:<model-name>
  --base-url <url>       OpenAI-compatible endpoint for openai:<name> (OpenAI, Azure, Ollama, vLLM, LM Studio)
  --api-key-env <VAR>    environment variable that holds the API key (default OPENAI_API_KEY); never written anywhere
  --temperature <t>, --max-tokens <n>, --model-seed <n>
  --prompts <dir>        folder with the role .prompt files (default: ./prompts/<arch> if present, else built-in)
  --sim <spec>           embedded (default) | stdio:<command line> | ws://host:port (a simulator-protocol server)
  --limit <name=value>   an architecture limit by its seed name (repeatable; see \`waypoint archs\`)
  --human <robot>        type that robot's dialog turns yourself (RoCo: --human Alice; repeatable; a blank line sends)
  --max-turns <n>, --max-errors <n>   MALMM's limits (same as --limit maxTurns=n / maxConsecutiveErrors=n)
  --code-timeout <secs>, --persist-namespace
  --no-cache             do not read or write the response cache (.waypoint/cache)
  --workspace <dir>      folder holding .waypoint/ (default: current directory)
  --verbose              print whole messages and states
Exit code: 0 task success, 1 task failure, 2 bad input or a run that could not start.`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(USAGE + '\n');
    return command ? 0 : 2;
  }
  switch (command) {
    case 'run':
      return runCommand(parseArgs({ args: rest, options: RUN_OPTIONS, allowPositionals: false, strict: true }).values);
    case 'compare':
      return compareCommand(parseArgs({ args: rest, options: COMPARE_OPTIONS, strict: true }).values);
    case 'demo':
      return demoCommand(rest);
    case 'runs':
      return runsCommand(parseArgs({ args: rest, options: { workspace: { type: 'string' }, json: { type: 'boolean' } }, strict: true }).values);
    case 'show': {
      const p = parseArgs({ args: rest, options: { workspace: { type: 'string' }, verbose: { type: 'boolean' } }, allowPositionals: true, strict: true });
      return showCommand(p.positionals[0], p.values);
    }
    case 'report': {
      const p = parseArgs({ args: rest, options: { workspace: { type: 'string' }, out: { type: 'string' }, theme: { type: 'string' } }, allowPositionals: true, strict: true });
      return reportCommand(p.positionals[0], p.values);
    }
    case 'archs':
      return archsCommand(parseArgs({ args: rest, options: { json: { type: 'boolean' } }, strict: true }).values);
    case 'scene': {
      const p = parseArgs({ args: rest, options: SCENE_OPTIONS, allowPositionals: true, strict: true });
      return sceneCommand(p.positionals[0], p.values);
    }
    case 'export': {
      const p = parseArgs({ args: rest, options: EXPORT_OPTIONS, allowPositionals: true, strict: true });
      return exportCommand(p.positionals[0], p.values);
    }
    case 'tasks':
      return tasksCommand(parseArgs({ args: rest, options: { arch: { type: 'string' } }, strict: true }).values);
    case 'serve-model':
      return serveModelCommand(parseArgs({ args: rest, options: { port: { type: 'string' }, host: { type: 'string' } }, strict: true }).values);
    case 'serve-sim':
      return serveSimCommand(parseArgs({ args: rest, options: { ws: { type: 'boolean' }, port: { type: 'string' }, host: { type: 'string' } }, strict: true }).values);
    default:
      process.stderr.write(`waypoint: unknown command '${command}'\n\n${USAGE}\n`);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    // Argument errors from parseArgs and the like: one line, no stack.
    process.stderr.write(`waypoint: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 2;
  },
);
