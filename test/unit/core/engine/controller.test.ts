import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EpisodeController, type RuntimeEvent } from '../../../../src/core/engine/controller.js';
import type { TraceEvent } from '../../../../src/protocol/trace.js';

const ev = (seq: number, type: 'chat_message' | 'role_call'): TraceEvent =>
  type === 'chat_message'
    ? { type, seq, tMs: 0, turn: seq, speaker: 'Planner', content: 'x' }
    : { type, seq, tMs: 0, turn: seq, callId: `c${seq}`, role: 'coder', messages: [], model: 'm', params: {}, promptPath: 'p', variables: {} };

function nextStop(c: EpisodeController): Promise<Extract<RuntimeEvent, { type: 'stopped' }>> {
  return new Promise((resolve) => {
    const off = c.on((e) => {
      if (e.type === 'stopped') {
        off();
        resolve(e);
      }
    });
  });
}

test('free run never blocks', async () => {
  const c = new EpisodeController();
  for (let i = 0; i < 5; i++) await c.afterEvent(ev(i, 'chat_message'));
  assert.equal(c.isStopped, false);
});

test('stop on entry, step one event, then continue to a breakpoint on a role call', async () => {
  const c = new EpisodeController({ stopOnEntry: true });
  c.setBreakpoints([{ id: 7, label: 'coder call', matches: (e) => e.type === 'role_call' && e.role === 'coder' }]);
  const log: number[] = [];
  const engine = (async () => {
    for (const e of [ev(0, 'chat_message'), ev(1, 'chat_message'), ev(2, 'chat_message'), ev(3, 'role_call'), ev(4, 'chat_message')]) {
      await c.afterEvent(e);
      log.push(e.seq);
    }
  })();
  const s1 = await nextStop(c);
  assert.equal(s1.reason, 'step');
  assert.equal(s1.event.seq, 0);
  assert.deepEqual(log, [], 'the engine waits before acting on the event');
  const s2p = nextStop(c);
  c.step('event');
  const s2 = await s2p;
  assert.equal(s2.event.seq, 1);
  assert.deepEqual(log, [0]);
  const s3p = nextStop(c);
  c.continue();
  const s3 = await s3p;
  assert.equal(s3.reason, 'breakpoint');
  assert.equal(s3.breakpointId, 7);
  assert.equal(s3.event.seq, 3);
  c.continue();
  await engine;
  assert.deepEqual(log, [0, 1, 2, 3, 4]);
});

test('step by turn skips to the next role call; pause stops at the next event; cancel releases and aborts', async () => {
  const c = new EpisodeController({ stopOnEntry: true });
  const engine = (async () => {
    for (const e of [ev(0, 'chat_message'), ev(1, 'chat_message'), ev(2, 'role_call'), ev(3, 'chat_message'), ev(4, 'chat_message')]) await c.afterEvent(e);
  })();
  await nextStop(c);
  const p = nextStop(c);
  c.step('turn');
  assert.equal((await p).event.seq, 2);
  const p2 = nextStop(c);
  c.continue();
  c.pause();
  assert.equal((await p2).reason, 'pause');
  c.cancel();
  await engine;
  assert.equal(c.signal.aborted, true);
});
