// `waypoint run --vision` against the AI2-THOR adapter (stand-in controller) over the simulator protocol, the model
// endpoint behind a recorder: with vision on, each LLaMAR request carries the robots' egocentric frames as OpenAI
// `image_url` parts (and the trace keeps each frame once, as a blob); with it off, no request has an image and the
// text is what vision-on sends beside its images.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { architectures } from '../../../src/architectures/registry.js';
import { registerReferencePolicies } from '../../../src/core/llm/reference/policies.js';
import { startReferenceServer, type ReferenceServer } from '../../../src/core/llm/reference/server.js';
import { readTrace } from '../../../src/core/trace/reader.js';
import { freshCli } from '../../helpers/dist.js';
import { skipWithout } from '../../helpers/prereqs.js';

const noPython = skipWithout('python3');
const cli = noPython ? '' : freshCli();
const ws = mkdtempSync(join(tmpdir(), 'waypoint-vision-'));
const THOR = `stdio:python3 ${join(process.cwd(), 'bridges', 'python', 'examples', 'ai2thor_llamar.py')} --stand-in`;

type WireContent = string | { type: string; text?: string; image_url?: { url: string } }[];
interface Recorded { messages: { role: string; content: WireContent }[] }

let reference: ReferenceServer;
let recorder: Server;
let recorderUrl = '';
let requests: Recorded[] = [];

before(async () => {
  // The architectures' scripted policies, as `waypoint serve-model` registers them.
  registerReferencePolicies(architectures);
  reference = await startReferenceServer();
  const upstream = new URL(reference.url);
  // Forwards every request to the reference server; keeps the chat requests' bodies.
  recorder = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (req.url?.endsWith('/chat/completions')) requests.push(JSON.parse(body.toString('utf8')) as Recorded);
      const fwd = httpRequest({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers }, (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      });
      fwd.on('error', () => res.destroy());
      fwd.end(body);
    });
  });
  await new Promise<void>((r) => recorder.listen(0, '127.0.0.1', r));
  const addr = recorder.address();
  recorderUrl = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}/v1`;
});
after(async () => {
  await new Promise<void>((r) => recorder?.close(() => r()));
  await reference?.close();
  rmSync(ws, { recursive: true, force: true });
});

/** Runs the CLI asynchronously (the recorder answers in this process). */
function run(extra: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const args = [cli, 'run', '--arch', 'llamar', '--sim', THOR, '--task', 'put_bread_lettuce_tomato_fridge@FloorPlan1', '--agents', '2', '--limit', 'maxSteps=3', '--model', 'reference', '--base-url', recorderUrl, '--no-cache', '--quiet', ...extra];
  return new Promise((resolve) => {
    const p = spawn(process.execPath, args, { cwd: ws, env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d) => (stdout += d));
    p.stderr.on('data', (d) => (stderr += d));
    p.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

const imageUrls = (r: Recorded) => r.messages.flatMap((m) => (Array.isArray(m.content) ? m.content.filter((p) => p.type === 'image_url').map((p) => p.image_url!.url) : []));

test('--vision sends each robot\'s egocentric frame as image_url parts; without it no request has an image', { skip: noPython }, async () => {
  requests = [];
  const on = await run(['--vision']);
  assert.ok(on.status === 0 || on.status === 1, on.stdout + on.stderr);
  const withVision = requests;
  requests = [];
  const off = await run([]);
  assert.ok(off.status === 0 || off.status === 1, off.stdout + off.stderr);
  const without = requests;

  assert.ok(withVision.length >= 4, `only ${withVision.length} chat requests: ${on.stdout.slice(-3000)}${on.stderr}`);
  for (const r of withVision) {
    const urls = imageUrls(r);
    // Alice's and Bob's frames, as PNG data URLs, on the request message.
    assert.equal(urls.length, 2, JSON.stringify(r.messages.map((m) => m.role)));
    for (const u of urls) {
      assert.match(u, /^data:image\/png;base64,/);
      assert.deepEqual([...Buffer.from(u.slice(u.indexOf(',') + 1), 'base64').subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
    }
    assert.notEqual(urls[0], urls[1]);
  }
  assert.equal(without.length, withVision.length);
  assert.ok(without.every((r) => imageUrls(r).length === 0 && r.messages.every((m) => typeof m.content === 'string')));
  // The text stand-in is the same with vision on: the image request's text part is the text-only request's content.
  const first = withVision[0]!.messages.find((m) => Array.isArray(m.content))!;
  const text = (first.content as { type: string; text?: string }[]).find((p) => p.type === 'text')!.text;
  const plain = without[0]!.messages.filter((m) => m.role === 'user').at(-1)!;
  assert.equal(text, plain.content);

  // The trace: the run says vision was on, each distinct frame is one blob record, the role calls show them.
  const tracePath = /^trace: (.+trace\.jsonl)$/m.exec(on.stdout)?.[1];
  assert.ok(tracePath, on.stdout);
  const raw = readFileSync(tracePath, 'utf8');
  const blobs = raw.split('\n').filter((l) => l.startsWith('{"record":"blob"')).map((l) => JSON.parse(l) as { sha256: string });
  const { events } = readTrace(raw);
  const start = events[0]!;
  assert.ok(start.type === 'episode_start' && (start.options as Record<string, unknown>).vision === true);
  const shown = new Set(events.flatMap((e) => (e.type === 'role_call' ? e.messages.flatMap((m) => (m.parts ?? []).flatMap((p) => (p.type === 'image' && p.dataBase64 ? [p.sha256] : []))) : [])));
  assert.ok(shown.size >= 2);
  assert.deepEqual(new Set(blobs.map((b) => b.sha256)), shown);
  assert.equal(blobs.length, shown.size);
  const alts = events.flatMap((e) => (e.type === 'role_call' ? e.messages.flatMap((m) => (m.parts ?? []).flatMap((p) => (p.type === 'image' ? [p.alt] : []))) : []));
  assert.ok(alts.includes("Alice's egocentric camera, 64x64 PNG") && alts.includes("Bob's egocentric camera, 64x64 PNG"), JSON.stringify(alts.slice(0, 4)));
});
