// The debugger with an architecture the workspace brings: examples/architectures/cap/ copied into
// .waypoint/architectures/ launches like a built-in one (a breakpoint in its own prompt file stops before its call);
// the same folder broken is the launch's error with file:line.
import assert from 'node:assert/strict';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { endSession, launchWith, ROOT, startAdapter, stopped, topFrames } from './dapClient.js';

const root = mkdtempSync(join(tmpdir(), 'waypoint-dap-ws-'));
after(() => rmSync(root, { recursive: true, force: true }));

function workspace(name: string): { dir: string; folder: string } {
  const dir = join(root, name);
  const folder = join(dir, '.waypoint', 'architectures', 'cap');
  cpSync(join(ROOT, 'examples', 'architectures', 'cap'), folder, { recursive: true });
  return { dir, folder };
}

test("a breakpoint in a workspace architecture's prompt stops before its role's call; the episode then runs to its end", async () => {
  const ws = workspace('ok');
  const prompt = join(ws.folder, 'prompts', 'policy.prompt');
  const line = readFileSync(prompt, 'utf8').split('\n').findIndex((l) => l.startsWith('# task:')) + 1;
  const s = await startAdapter(ws.dir);
  try {
    let set: DebugProtocol.SetBreakpointsResponse | undefined;
    const e = await stopped(s.dc, () =>
      launchWith(s.dc, { architecture: 'cap', task: 'stack_blocks', seed: 0, model: 'reference' }, async () => {
        set = await s.dc.setBreakpointsRequest({ source: { path: prompt }, breakpoints: [{ line }] });
      }),
    );
    assert.equal(set?.body.breakpoints[0]?.verified, true, JSON.stringify(set?.body));
    assert.equal(e.body.reason, 'breakpoint');
    const [top] = await topFrames(s.dc);
    assert.equal(top!.source?.path, prompt);
    assert.equal(top!.line, line);
    await Promise.all([s.dc.continueRequest({ threadId: 1 }), s.dc.waitForEvent('terminated')]);
  } finally {
    await endSession(s);
  }
});

test('a broken workspace architecture is the launch error, with its file and line', async () => {
  const ws = workspace('broken');
  const loop = join(ws.folder, 'loop.ts');
  const line = readFileSync(loop, 'utf8').split('\n').length;
  appendFileSync(loop, 'export const broken = ;\n');
  const s = await startAdapter(ws.dir);
  try {
    await s.dc.initializeRequest();
    await assert.rejects(s.dc.launchRequest({ architecture: 'cap' } as DebugProtocol.LaunchRequestArguments), new RegExp(`loop\\.ts:${line}: architecture 'cap' refused: Unexpected ";"`));
  } finally {
    await endSession(s);
  }
});
