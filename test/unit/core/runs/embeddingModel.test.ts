// The run's embedding model (LLaMAR's action matcher): the reference model's runs embed with the reference
// server's fixture, recorded in the run header; `--embedding-model` (or a sweep's model.embeddingModel) names
// another, 'none' turns it off, and a separate `--embedding-base-url` is recorded and sent no API key.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { architectures } from '../../../../src/architectures/registry.js';
import { modelSpecFromArgs } from '../../../../src/cli/run.js';
import { nodeClock, nodeIO } from '../../../../src/core/node/nodeHost.js';
import { launchRun, makeEmbeddings, type LaunchOptions } from '../../../../src/core/runs/launch.js';
import { createHouseholdSimulator } from '../../../../src/core/sim/household/index.js';
import { modelSpecOf, parseSweepSpec } from '../../../../src/core/sweep/spec.js';
import { readTrace } from '../../../../src/core/trace/reader.js';
import type { EventOf, TraceEvent } from '../../../../src/protocol/trace.js';
import { noSandbox } from '../../architectures/llamar/helpers.js';

const workspace = mkdtempSync(join(tmpdir(), 'waypoint-embedding-'));
const deps = { io: nodeIO, clock: nodeClock, architectures, createSimulator: async () => createHouseholdSimulator(), createSandbox: () => noSandbox };
const run = (model: LaunchOptions['model']) =>
  launchRun({ workspace, arch: 'llamar', task: 'put_bread_lettuce_tomato_fridge', seed: 0, agents: 2, builtInPromptRoot: join(process.cwd(), 'src', 'architectures'), model }, deps);
const header = (path: string) => readTrace(readFileSync(path, 'utf8')).events[0] as EventOf<'episode_start'>;

/** A separate embeddings endpoint that records what reaches it (it has no embeddings: 404). */
const seen: { url: string; headers: IncomingHttpHeaders }[] = [];
const other = createServer((req, res) => {
  seen.push({ url: req.url ?? '', headers: req.headers });
  req.resume();
  req.on('end', () => {
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end('{"error": {"message": "no such route"}}');
  });
});
let otherUrl = '';
before(async () => {
  await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
  otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}/v1`;
});
after(() => {
  other.closeAllConnections();
  other.close();
  rmSync(workspace, { recursive: true, force: true });
});

test('a LLaMAR run with the reference model records the reference embedding fixture in its header; the reference rates hold', async () => {
  const r = await run({ kind: 'reference' });
  assert.equal(r.success, true, `${r.reason}: ${r.message ?? ''}`);
  const start = header(r.tracePath);
  assert.equal(start.model.embeddingModel, 'reference-embedding');
  assert.equal(start.model.embeddingBaseUrl, undefined);
  const off = await run({ kind: 'reference', embeddingModel: 'none' });
  assert.equal(off.success, true);
  assert.equal(header(off.tracePath).model.embeddingModel, undefined);
  // The reference policy writes object ids out, so the rule decides all its actions, with or without embeddings.
  const matchers = (path: string) =>
    readTrace(readFileSync(path, 'utf8'))
      .events.filter((e: TraceEvent): e is EventOf<'parsed_output'> => e.type === 'parsed_output' && e.kind === 'actions' && e.ok)
      .flatMap((e) => Object.values((e.value as { actions: Record<string, { matcher: string }> }).actions).map((a) => a.matcher));
  assert.deepEqual([...new Set(matchers(r.tracePath))], ['rule']);
  assert.equal(r.end.metrics.steps, off.end.metrics.steps);
});

test('a separate embeddings endpoint is recorded in the header, and the run goes on whatever it answers', async () => {
  const r = await run({ kind: 'reference', embeddingModel: 'nomic-embed-text', embeddingBaseUrl: otherUrl });
  assert.equal(r.success, true, `${r.reason}: ${r.message ?? ''}`);
  const start = header(r.tracePath);
  assert.deepEqual([start.model.embeddingModel, start.model.embeddingBaseUrl], ['nomic-embed-text', otherUrl]);
});

test("the chat endpoint's API key goes with embeddings asked of it, never to a separate embeddings endpoint", async () => {
  const key = 'sk-test-embedding-key';
  const spec = { kind: 'openai' as const, model: 'm', baseUrl: otherUrl, apiKey: key };
  assert.equal(makeEmbeddings(spec, otherUrl, nodeClock), undefined, 'no embedding model named: none');
  const same = makeEmbeddings({ ...spec, embeddingModel: 'e' }, otherUrl, nodeClock)!;
  assert.deepEqual(same.settings, { embeddingModel: 'e' });
  const r = await same.client.embed(['open the fridge']);
  assert.ok(!r.ok && r.unsupported && !r.error.message.includes(key));
  assert.equal(seen.at(-1)!.headers.authorization, `Bearer ${key}`);
  const sep = makeEmbeddings({ ...spec, embeddingModel: 'e', embeddingBaseUrl: otherUrl.replace('127.0.0.1', 'localhost') }, 'http://127.0.0.1:9/v1', nodeClock)!;
  assert.equal(sep.settings.embeddingBaseUrl, otherUrl.replace('127.0.0.1', 'localhost'));
  await sep.client.embed(['open the fridge']);
  assert.equal(seen.at(-1)!.headers.authorization, undefined);
  assert.equal(seen.at(-1)!.url, '/v1/embeddings');
});

test('--embedding-model and --embedding-base-url, and a sweep\'s model keys, reach the model spec', () => {
  const args = { model: 'openai:llama3.2', 'base-url': 'http://127.0.0.1:11434/v1', 'api-key-env': 'NO_SUCH_KEY_VAR', temperature: undefined, 'max-tokens': undefined, 'model-seed': undefined };
  assert.deepEqual(modelSpecFromArgs({ ...args, 'embedding-model': 'nomic-embed-text' }, {}).embeddingModel, 'nomic-embed-text');
  assert.equal(modelSpecFromArgs(args, {}).embeddingModel, undefined);
  assert.equal(modelSpecFromArgs({ ...args, model: 'reference', 'embedding-model': 'none' }, {}).embeddingModel, 'none');
  assert.throws(() => modelSpecFromArgs({ ...args, 'embedding-base-url': 'localhost:1' }, {}), /--embedding-base-url must be an http:\/\/ or https:\/\/ URL, got 'localhost:1'/);
  assert.throws(() => modelSpecFromArgs({ ...args, 'embedding-base-url': 'http://127.0.0.1:1/v1' }, {}), /--embedding-base-url needs --embedding-model/);
  const spec = parseSweepSpec('arch: llamar\ntasks: [t]\nvariants: [default]\nseeds: 1\nmodel:\n  name: openai:m\n  baseUrl: http://127.0.0.1:1/v1\n  embeddingModel: e5\n  embeddingBaseUrl: http://127.0.0.1:2/v1\n', 'sweep.yaml');
  const m = modelSpecOf(spec.model, {});
  assert.deepEqual([m.embeddingModel, m.embeddingBaseUrl], ['e5', 'http://127.0.0.1:2/v1']);
});

test("a sweep's meter wraps the run's embedding client (under its retries), as it wraps the chat client", async () => {
  const wrapped: string[] = [];
  const r = await launchRun(
    { workspace, arch: 'llamar', task: 'put_bread_lettuce_tomato_fridge', seed: 0, agents: 2, builtInPromptRoot: join(process.cwd(), 'src', 'architectures'), model: { kind: 'reference' } },
    {
      ...deps,
      wrapEmbeddings: (c) => {
        wrapped.push(c.model);
        return c;
      },
    },
  );
  assert.equal(r.success, true);
  assert.deepEqual(wrapped, ['reference-embedding']);
  const none: string[] = [];
  await launchRun({ workspace, arch: 'llamar', task: 'put_bread_lettuce_tomato_fridge', seed: 0, agents: 2, builtInPromptRoot: join(process.cwd(), 'src', 'architectures'), model: { kind: 'reference', embeddingModel: 'none' } }, { ...deps, wrapEmbeddings: (c) => (none.push(c.model), c) });
  assert.deepEqual(none, [], 'no embedding model, nothing to meter');
  const local: string[] = [];
  const tiny = `local:${join(process.cwd(), 'test', 'fixtures', 'tiny-sbert')}`;
  const l = await launchRun({ workspace, arch: 'llamar', task: 'put_bread_lettuce_tomato_fridge', seed: 0, agents: 2, builtInPromptRoot: join(process.cwd(), 'src', 'architectures'), model: { kind: 'reference', embeddingModel: tiny } }, { ...deps, wrapEmbeddings: (c) => (local.push(c.model), c) });
  assert.equal(l.success, true);
  assert.deepEqual(local, [], 'a local model calls no endpoint: not rate-limited, no tokens billed');
});

test('a local embedding folder: the run header names it; a folder that cannot be used stops the run before it starts, naming the file', async () => {
  const tiny = join(process.cwd(), 'test', 'fixtures', 'tiny-sbert');
  const r = await run({ kind: 'reference', embeddingModel: `local:${tiny}` });
  assert.equal(r.success, true, `${r.reason}: ${r.message ?? ''}`);
  assert.equal(header(r.tracePath).model.embeddingModel, `local:${tiny}`);
  const missing = join(workspace, 'no-model');
  const bad = await run({ kind: 'reference', embeddingModel: `local:${missing}` });
  assert.equal(bad.reason, 'invalid_input');
  assert.equal(bad.message, `local embedding model: no such folder (${missing})`);
  assert.equal(bad.end.metrics.modelCalls, 0);
});

test('--embedding-model local:<dir> or ./<dir> becomes the absolute folder; --embedding-base-url beside it is refused', () => {
  const args = { model: 'reference', 'base-url': undefined, 'api-key-env': 'NO_SUCH_KEY_VAR', temperature: undefined, 'max-tokens': undefined, 'model-seed': undefined };
  assert.equal(modelSpecFromArgs({ ...args, 'embedding-model': 'local:test/fixtures/tiny-sbert' }, {}).embeddingModel, `local:${join(process.cwd(), 'test/fixtures/tiny-sbert')}`);
  assert.equal(modelSpecFromArgs({ ...args, 'embedding-model': './models/m' }, {}).embeddingModel, `local:${join(process.cwd(), 'models/m')}`);
  assert.throws(() => modelSpecFromArgs({ ...args, 'embedding-model': 'local:m', 'embedding-base-url': 'http://127.0.0.1:1/v1' }, {}), /--embedding-base-url has no use with a local embedding model/);
});
