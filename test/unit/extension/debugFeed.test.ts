// The run viewer's view of a debug session: the trace cut at the debugger's position (plots up to the position
// reached), growing as the episode runs, starting over when the debugger steps back.
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { DebugRunFeed } from '../../../src/extension/debug/runFeed.js';
import { liveDebugConfig, modelAttributes } from '../../../src/extension/debug/launchConfig.js';
import { parseSettings } from '../../../src/extension/settings.js';
import { LaunchArguments } from '../../../src/protocol/dap.js';

const fixture = join(process.cwd(), 'test', 'fixtures', 'traces', 'malmm-pick-place.jsonl');

test('a recording is shown up to the position; stepping back starts the view over', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'waypoint-feed-'));
  try {
    const path = join(dir, 'trace.jsonl');
    copyFileSync(fixture, path);
    const feed = new DebugRunFeed(path, false);
    const appended: number[] = [];
    let resets = 0;
    feed.onEvents((es) => appended.push(...es.map((e) => e.seq)));
    feed.onReset(() => resets++);
    await feed.moveTo({ seq: 20, headSeq: 80, live: false });
    assert.equal(feed.events.length, 21);
    assert.equal(feed.events[feed.events.length - 1]!.seq, 20);
    assert.ok(feed.events.every((e) => e.type !== 'trajectory' || e.seq <= 20), 'no motion after the position');
    await feed.moveTo({ seq: 30, headSeq: 80, live: false });
    assert.deepEqual(appended.slice(-10), [21, 22, 23, 24, 25, 26, 27, 28, 29, 30]);
    await feed.moveTo({ seq: 12, headSeq: 80, live: false });
    assert.equal(resets, 1);
    assert.equal(feed.events.length, 13);
    await feed.finish();
    assert.ok(feed.events.length > 80, 'the whole trace once the session ends');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the configuration ⏵ Debug live test starts is a valid launch (the prompt’s architecture, the run settings)', () => {
  const { settings } = parseSettings(() => undefined);
  const c = liveDebugConfig(settings, 'malmm', { seed: 3 }, '/w');
  assert.equal(c.name, 'Debug malmm · stack_blocks · seed 3');
  const own = Object.fromEntries(Object.entries({ ...c, ...modelAttributes({ kind: 'reference' }) }).filter(([k]) => !['type', 'request', 'name'].includes(k)));
  const parsed = LaunchArguments.safeParse(own);
  assert.ok(parsed.success, JSON.stringify(parsed.error?.issues));
  // The run settings' reference profile reaches the adapter (the flawed one makes its seeded mistakes there too).
  const flawed = LaunchArguments.safeParse({ ...own, ...modelAttributes({ kind: 'reference', profile: 'reference-flawed' }) });
  assert.equal(flawed.success && flawed.data.model, 'reference-flawed');
  assert.deepEqual(modelAttributes({ kind: 'openai', model: 'gpt-4o-mini', baseUrl: 'https://api.openai.com/v1' }), { model: 'openai:gpt-4o-mini', baseUrl: 'https://api.openai.com/v1' });
});
