// `waypoint doctor --model openai:<name> --base-url <url>`: probes an OpenAI-compatible endpoint and says which
// architectures and features will work with it and what to pass. The probing and the judging are in
// src/core/llm/doctor; this file reads the key from the environment, prints the lines as they come, and maps the
// outcome to the exit status.
import { architectureManifests } from '../architectures/manifests.js';
import { EXIT_CHAT_FAILS, formatConclusion, formatHeader, formatProbeLine, runDoctor, type DoctorReport } from '../core/llm/doctor/doctor.js';
import type { Audience } from '../core/llm/doctor/probes.js';
import { azureDeployment } from '../core/llm/doctor/providers.js';
import { loadArchNeeds } from '../core/llm/doctor/verdicts.js';
import { REFERENCE_PROFILES } from '../core/llm/reference/policy.js';
import { registerReferencePolicies } from '../core/llm/reference/policies.js';
import { architectures } from '../architectures/registry.js';
import { startReferenceServer } from '../core/llm/reference/server.js';
import { nodeClock, nodeIO } from '../core/node/nodeHost.js';
import { builtInPromptRoot } from '../core/node/packageRoot.js';
import { MODEL_OPTIONS } from './commonOptions.js';
import { whileCleaningUp } from './lifecycle.js';
import { defineCommand, UsageError } from './options.js';

export interface DoctorArgs {
  model?: string;
  'base-url'?: string;
  'api-key-env': string;
  'azure-api-version'?: string;
  'embedding-model'?: string;
  timeout: number;
  json?: boolean;
  advice: string;
}

export async function doctorCommand(a: DoctorArgs, out: NodeJS.WritableStream = process.stdout, env: NodeJS.ProcessEnv = process.env, signal?: AbortSignal): Promise<number> {
  const m = a.model;
  if (!m) throw new UsageError('--model is required: openai:<model-name> (or reference, to check the reference server)');
  const reference = (REFERENCE_PROFILES as readonly string[]).includes(m);
  if (!reference && !/^openai:.+/.test(m)) throw new UsageError(`--model must be openai:<model-name> or ${REFERENCE_PROFILES.join(', ')}, got '${m}'`);
  let baseUrl = a['base-url'] ?? (reference ? undefined : 'https://api.openai.com/v1');
  if (baseUrl !== undefined && !/^https?:\/\/[^/]/.test(baseUrl)) throw new UsageError(`--base-url must be an http:// or https:// URL, got '${baseUrl}'`);
  if (baseUrl && azureDeployment(baseUrl) && !a['azure-api-version']) {
    throw new UsageError(`an Azure deployment URL (…/openai/deployments/<name>) needs --azure-api-version (e.g. 2024-10-21); or check the v1 endpoint https://${new URL(baseUrl).hostname}/openai/v1, which runs use`);
  }
  const apiKey = env[a['api-key-env']] || undefined;
  const write = (s: string) => out.write(s + '\n');
  const archs = await loadArchNeeds(nodeIO, builtInPromptRoot(), architectureManifests.list());

  // `--model reference` without a URL checks a reference server of our own (a scripted policy, not an LLM).
  let close = async () => {};
  if (baseUrl === undefined) {
    registerReferencePolicies(architectures);
    const server = await startReferenceServer({ port: 0 });
    close = () => server.close();
    baseUrl = server.url;
  }
  const modelArg = m;
  let headerShown = false;
  try {
    const report: DoctorReport = await runDoctor({
      baseUrl,
      model: reference ? m : m.slice('openai:'.length),
      modelArg,
      apiKey,
      apiKeyEnv: a['api-key-env'],
      ...(a['azure-api-version'] ? { azureApiVersion: a['azure-api-version'] } : {}),
      ...(a['embedding-model'] ? { embeddingModel: a['embedding-model'] } : {}),
      timeoutMs: Math.round(a.timeout * 1000),
      audience: a.advice as Audience,
      clock: nodeClock,
      archs,
      ...(signal ? { signal } : {}),
      onProbe: (line) => {
        if (a.json) return;
        // The header waits for the first probe: an endpoint that cannot be used at all gets its one line only.
        if (!headerShown) write(formatHeader(modelArg, baseUrl!));
        headerShown = true;
        write(formatProbeLine(line));
      },
    });
    if (a.json) write(JSON.stringify({ model: modelArg, ...report }, null, 2));
    else write(formatConclusion(report, apiKey));
    return report.exitCode;
  } finally {
    await close();
  }
}

export const doctorCmd = defineCommand({
  name: 'doctor',
  summary: 'check an OpenAI-compatible endpoint: what works (chat, limits, embeddings, images, JSON, context) and what to set per architecture',
  description:
    'Sends a dozen small requests through the same client runs use (the API key from --api-key-env, never printed; no Waypoint headers) and prints one line per probe: ✓ works, ✗ does not (with the reason or the setting to use), ? unknown. Then, per architecture, whether it will work and the flags to pass.',
  options: {
    model: { type: 'string', metavar: 'm', help: 'openai:<model-name> (required); or reference to check the reference server (in-process unless --base-url names one)', group: 'Model' },
    'base-url': MODEL_OPTIONS['base-url'],
    'api-key-env': MODEL_OPTIONS['api-key-env'],
    'azure-api-version': { type: 'string', metavar: 'v', help: "Azure's classic deployment URLs (…/openai/deployments/<name>): the api-version to send (the key then goes in the api-key header)", group: 'Model' },
    'embedding-model': { type: 'string', metavar: 'name', help: 'model for the embeddings probe', defaultText: 'an embedding model the server lists, else --model', group: 'Model' },
    timeout: { type: 'number', min: 0, exclusiveMin: true, default: 60, metavar: 'secs', help: 'time limit of each request' },
    json: { type: 'boolean', help: 'print the findings and verdicts as JSON for tools' },
    advice: { type: 'string', choices: ['cli', 'vscode', 'none'], default: 'cli', help: 'say what to set as command-line flags (cli), as VS Code settings (vscode; the extension uses it), or not at all' },
  },
  examples: [
    'waypoint doctor --model openai:gpt-4o-mini',
    'waypoint doctor --model openai:llama3.2 --base-url http://127.0.0.1:11434/v1',
    'waypoint doctor --model openai:my-deployment --base-url https://res.openai.azure.com/openai/v1 --api-key-env AZURE_OPENAI_API_KEY',
  ],
  exitStatus: `0 chat completions work (other probes may still fail), ${EXIT_CHAT_FAILS} they do not (unreachable, wrong path, key rejected, unknown model, ...), 2 bad input.`,
  run: ({ values }) => whileCleaningUp((signal) => doctorCommand(values as DoctorArgs, process.stdout, process.env, signal)),
});
