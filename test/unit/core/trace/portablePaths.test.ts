// Reports and exports leave the machine: prompt paths and error locations become relative to the workspace, the
// installed package or the home folder, and nothing else in the events changes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { portablePaths } from '../../../../src/core/trace/portablePaths.js';
import type { TraceEvent } from '../../../../src/protocol/trace.js';

test('absolute prompt paths become workspace-, package- or home-relative; numbers and other text stay', () => {
  const events = [
    { seq: 0, tMs: 0, type: 'role_call', turn: 1, role: 'coder', promptFile: '/home/ada/proj/prompts/malmm/coder.prompt', messages: [] },
    { seq: 1, tMs: 1, type: 'role_call', turn: 2, role: 'planner', promptFile: '/opt/waypoint/prompts/malmm/planner.prompt', messages: [] },
    { seq: 2, tMs: 2, type: 'error', kind: 'prompt_error', message: 'bad YAML in /home/ada/notes/x.prompt at line 3', file: '/home/ada/notes/x.prompt', line: 3 },
    { seq: 3, tMs: 3, type: 'observation', turn: 3, text: 'red block at [0.1 0.2 0.3] / nothing else', qpos: [0.5, 1.5] },
  ] as unknown as TraceEvent[];
  const out = portablePaths(events, { workspace: '/home/ada/proj', packageRoot: '/opt/waypoint', home: '/home/ada' }) as unknown as Record<string, unknown>[];
  assert.equal(out[0]!.promptFile, 'prompts/malmm/coder.prompt');
  assert.equal(out[1]!.promptFile, '<waypoint>/prompts/malmm/planner.prompt');
  assert.equal(out[2]!.file, '~/notes/x.prompt');
  assert.equal(out[2]!.message, 'bad YAML in ~/notes/x.prompt at line 3');
  assert.deepEqual(out[3], events[3], 'an event without those roots is unchanged');
  assert.ok(!JSON.stringify(out).includes('/home/ada/'), 'no absolute home path is left');
});
