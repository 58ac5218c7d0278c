// The scripted success detector on a figure drawn with the closed gripper (draw_circle): with no object in the
// scene it reads the gripper's own track, and says "completed" only when that track went round the commanded
// circle at the table, not blindly.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { trajgenDetector } from '../../../../../src/architectures/trajgen/reference/detector.js';
import { formatDetectorTracks, type DetectorTrack } from '../../../../../src/architectures/trajgen/tracks.js';
import type { ChatMessage } from '../../../../../src/protocol/trace.js';

const COMMAND = 'draw a circle 10cm wide with its centre at [0.0,0.3,0.75] with the gripper closed';
const ctx = { profile: 'reference-flawed' as const };

function ask(tracks: DetectorTrack[]): string {
  const messages: ChatMessage[] = [
    { role: 'system', content: `You decide whether a user command was carried out successfully.\nThe user command is "${COMMAND}".` },
    { role: 'user', content: formatDetectorTracks(tracks) },
  ];
  return trajgenDetector(messages, { ...ctx, role: 'detector' } as never);
}
const completed = (answer: string) => /task_completed\(\)/.test(answer) && !/task_failed\(\)/.test(answer);

/** The gripper coming down at the circle's first point, going round `turn` of it at height z, and lifting. */
function gripper(z: number, turn = 1, r = 0.05, centre: [number, number] = [0, 0.3]): DetectorTrack {
  const pos: [number, number, number][] = [[centre[0] + r, centre[1], z + 0.08]];
  for (let i = 0; i <= 100 * turn; i++) {
    const a = (2 * Math.PI * i) / 100;
    pos.push([centre[0] + r * Math.cos(a), centre[1] + r * Math.sin(a), z]);
  }
  pos.push([pos[pos.length - 1]![0], pos[pos.length - 1]![1], z + 0.08]);
  return { query: 'gripper', object: 'tool centre', tSecs: pos.map((_, i) => i * 0.1), pos, yaw: pos.map(() => 0) };
}

test('draw_circle detector: the gripper round the commanded circle at the table is judged completed', () => {
  const answer = ask([gripper(0.765)]);
  assert.ok(completed(answer), answer);
  assert.match(answer, /in 12 of 12 sectors/);
});

test('draw_circle detector: a circle drawn in the air (the hard-coded-height flaw) is judged failed', () => {
  const answer = ask([gripper(0.9)]);
  assert.ok(!completed(answer), answer);
  assert.match(answer, /lowest height was 0\.900/);
});

test('draw_circle detector: half a circle, a smaller one or one elsewhere is judged failed', () => {
  for (const track of [gripper(0.765, 0.5), gripper(0.765, 1, 0.02), gripper(0.765, 1, 0.05, [0.15, 0.3])]) {
    const answer = ask([track]);
    assert.ok(!completed(answer), answer);
  }
});

test('draw_circle detector: with no track at all it does not answer completed', () => {
  const answer = ask([]);
  assert.ok(!completed(answer), answer);
});
