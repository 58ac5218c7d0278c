// `waypoint judge <sweep>`: the failure inspector's optional model judge. A model reads each failed episode's
// transcript and proposes labels from the taxonomy; the proposals go to the sweep's judge.json, marked as a model's
// proposal (the report and the comparison view show them apart). The automatic labels, labels.json and the matrix
// are untouched. With the reference model, the judge is scripted (not an LLM): a fixture for trying the path.
import { join, resolve } from 'node:path';
import { nodeClock, nodeIO } from '../core/node/nodeHost.js';
import { referenceLabel, REFERENCE_MODEL_NAME } from '../core/llm/reference/policy.js';
import { registerReferencePolicies } from '../core/llm/reference/policies.js';
import { architectures } from '../architectures/registry.js';
import { startReferenceServer } from '../core/llm/reference/server.js';
import { OpenAICompatibleClient } from '../core/llm/openai.js';
import { timerSleep, withRetries } from '../core/llm/retry.js';
import { seededRng } from '../core/host.js';
import { resolveModelSpec, type ModelSpec } from '../core/runs/launch.js';
import { StartError } from '../core/runs/preflight.js';
import { PLAN_FILE } from '../core/sweep/scheduler.js';
import { judgeSweep, JUDGE_FILE } from '../core/sweep/judge.js';
import { readRecords } from '../core/sweep/workers.js';
import { WORKSPACE_OPTIONS, MODEL_OPTIONS } from './commonOptions.js';
import { defineCommand } from './options.js';
import { modelSpecFromArgs, type RunArgs } from './run.js';
import { sweepDirFor } from './sweepReport.js';

type JudgeArgs = Pick<RunArgs, 'model' | 'base-url' | 'api-key-env' | 'temperature' | 'max-tokens' | 'model-seed'> & { workspace?: string; episodes?: string; again?: boolean };

export async function judgeCommand(target: string | undefined, a: JudgeArgs, out: NodeJS.WritableStream = process.stdout): Promise<number> {
  const fail = (m: string) => (process.stderr.write(`waypoint judge: ${m}\n`), 2);
  if (!target) return fail('a sweep is required: waypoint judge <sweep name or folder>');
  const workspace = resolve(a.workspace ?? process.cwd());
  const dir = sweepDirFor(target, workspace);
  if (!dir) return fail(`no sweep '${target}' (a folder with ${PLAN_FILE}, or a name under .waypoint/sweeps/)`);
  let spec: ModelSpec;
  try {
    // openai:reference at a `waypoint serve-model` URL is the scripted judge, sent the role headers it answers by.
    spec = await resolveModelSpec(modelSpecFromArgs(a, process.env, (l) => process.stderr.write(l + '\n')), nodeClock);
  } catch (err) {
    if (err instanceof StartError) return fail(err.message);
    throw err;
  }
  const plan = JSON.parse(await nodeIO.readText(join(dir, PLAN_FILE))) as { episodes: { key: string }[] };
  const keys = new Set(plan.episodes.map((e) => e.key));
  const records = (await readRecords(nodeIO, dir)).filter((r) => keys.has(r.key));
  const wanted = a.episodes?.split(',').map((s) => s.trim()).filter(Boolean);
  for (const k of wanted ?? []) if (!records.some((r) => r.key === k)) return fail(`no episode '${k}' in ${dir}`);
  let close = async () => {};
  let client;
  let model: string;
  let label: string;
  if (spec.kind === 'reference') {
    let url = spec.baseUrl;
    if (!url) {
      registerReferencePolicies(architectures);
      const server = await startReferenceServer({ port: 0 });
      close = () => server.close();
      url = server.url;
    }
    model = spec.profile ?? REFERENCE_MODEL_NAME;
    label = `${referenceLabel(model)} as judge`;
    client = new OpenAICompatibleClient({ baseUrl: url, clock: nodeClock, model, id: model, sendRequestMeta: true });
  } else {
    model = spec.model;
    label = `${spec.model} @ ${spec.baseUrl}`;
    client = new OpenAICompatibleClient({ baseUrl: spec.baseUrl, apiKey: spec.apiKey, clock: nodeClock, model: spec.model });
  }
  try {
    const failed = records.filter((r) => !r.success && (!wanted || wanted.includes(r.key)));
    let n = 0;
    const file = await judgeSweep({
      io: nodeIO,
      sweepDir: dir,
      workspace: resolve(dir, '..', '..', '..'),
      records,
      client: withRetries(client, {}, seededRng(0x5eed), timerSleep),
      model,
      modelLabel: label,
      keys: wanted,
      again: a.again,
      isoNow: () => nodeClock.isoNow(),
      onEpisode: (key, p) => {
        n++;
        if (process.stderr.isTTY) process.stderr.write(`\r\x1b[K  judged ${n} of ${failed.length}: ${key}`);
        if (p.unreadable) process.stderr.write(`\nwaypoint judge: ${key}: no labels in the answer (${p.unreadable.split('\n')[0]!.slice(0, 120)})\n`);
      },
    });
    if (process.stderr.isTTY) process.stderr.write('\r\x1b[K');
    const counts = new Map<string, number>();
    for (const p of Object.values(file.proposals)) for (const l of p.labels) counts.set(l.label, (counts.get(l.label) ?? 0) + 1);
    out.write(`proposed by ${label} (a model's proposal, not checked by a person) for ${Object.keys(file.proposals).length} failed episode(s):\n`);
    for (const [l, c] of [...counts.entries()].sort((x, y) => y[1] - x[1])) out.write(`  ${l.padEnd(24)} ${c}\n`);
    out.write(`written: ${join(dir, JUDGE_FILE)} (automatic labels and labels.json unchanged)\n`);
    return 0;
  } finally {
    await close();
  }
}

export const judgeCmd = defineCommand({
  name: 'judge',
  summary: "a model proposes failure labels for a sweep's failed episodes (kept apart, marked as a model's proposal)",
  positionals: [{ name: 'sweep', help: 'sweep name (under .waypoint/sweeps/) or folder' }],
  options: {
    episodes: { type: 'string', metavar: 'key,key', help: 'judge these episodes only (default: every failed one without a proposal)' },
    again: { type: 'boolean', help: 'judge again episodes that already have a proposal' },
    model: MODEL_OPTIONS.model,
    'base-url': MODEL_OPTIONS['base-url'],
    'api-key-env': MODEL_OPTIONS['api-key-env'],
    ...WORKSPACE_OPTIONS,
  },
  exitStatus: '0, 2 bad input.',
  run: ({ values, positionals }) => judgeCommand(positionals[0], values as JudgeArgs),
});
