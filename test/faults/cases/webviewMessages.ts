// Webview message validation (src/protocol/webview.ts) under malformed and hostile input. Every message first goes
// through structuredClone, which is what postMessage does to it, so the schemas see what a compromised view (or a
// hostile trace relayed by the host) can really send: odd types, huge strings, cycles, typed arrays, __proto__ keys.
// The panel-level test (posting into a real webview) belongs to the e2e suite.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HostToView, parseHostToView, RunViewerUiState, ViewToHost } from '../../../src/protocol/webview.js';
import { knownBug, tally } from '../helpers/harness.js';

function cloned(value: unknown): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: structuredClone(value) };
  } catch {
    // postMessage would refuse to send it at all.
    return { ok: false };
  }
}

const polluted = () => ({}) as Record<string, unknown>;

function circular(): unknown {
  const m: Record<string, unknown> = { type: 'ready', runId: 'r' };
  m.self = m;
  return m;
}

function deepObject(depth: number): unknown {
  let o: unknown = 1;
  for (let i = 0; i < depth; i++) o = { a: o };
  return o;
}

/** Messages a webview can post, with whether the host may accept them. */
const VIEW_MESSAGES: { name: string; msg: unknown; accept: boolean }[] = [
  { name: 'null', msg: null, accept: false },
  { name: 'undefined', msg: undefined, accept: false },
  { name: 'number', msg: 42, accept: false },
  { name: 'string', msg: 'ready', accept: false },
  { name: 'html string', msg: '<img src=x onerror=alert(1)>', accept: false },
  { name: 'array', msg: [{ type: 'ready' }], accept: false },
  { name: 'empty object', msg: {}, accept: false },
  { name: 'type null', msg: { type: null }, accept: false },
  { name: 'type case', msg: { type: 'READY' }, accept: false },
  { name: 'type with space', msg: { type: 'ready ' }, accept: false },
  { name: 'type as object', msg: { type: { toString: 'ready' } }, accept: false },
  { name: 'unknown type', msg: { type: 'runCommand', command: 'workbench.action.terminal.new' }, accept: false },
  { name: 'ready', msg: { type: 'ready' }, accept: true },
  { name: 'ready with extra keys', msg: { type: 'ready', runId: 'r', exec: 'rm -rf ~' }, accept: true },
  { name: 'ready, empty run id', msg: { type: 'ready', runId: '' }, accept: false },
  { name: 'ready, run id of 201 chars', msg: { type: 'ready', runId: 'r'.repeat(201) }, accept: false },
  { name: 'ready, run id a number', msg: { type: 'ready', runId: 7 }, accept: false },
  { name: 'openPrompt without requestId', msg: { type: 'openPrompt', path: 'prompts/malmm/coder.prompt' }, accept: false },
  { name: 'openPrompt, empty requestId', msg: { type: 'openPrompt', requestId: '', path: 'a.prompt' }, accept: false },
  { name: 'openPrompt, requestId of 101 chars', msg: { type: 'openPrompt', requestId: 'q'.repeat(101), path: 'a.prompt' }, accept: false },
  { name: 'openPrompt, empty path', msg: { type: 'openPrompt', requestId: 'q', path: '' }, accept: false },
  { name: 'openPrompt, path of 4097 chars', msg: { type: 'openPrompt', requestId: 'q', path: `${'a/'.repeat(2046)}x.prompt` }, accept: false },
  { name: 'openPrompt, path of 10 MB', msg: { type: 'openPrompt', requestId: 'q', path: 'p'.repeat(10_000_000) }, accept: false },
  { name: 'openPrompt, path an array', msg: { type: 'openPrompt', requestId: 'q', path: ['a.prompt'] }, accept: false },
  { name: 'openPrompt, line 0', msg: { type: 'openPrompt', requestId: 'q', path: 'a.prompt', line: 0 }, accept: false },
  { name: 'openPrompt, line -1', msg: { type: 'openPrompt', requestId: 'q', path: 'a.prompt', line: -1 }, accept: false },
  { name: 'openPrompt, line 1.5', msg: { type: 'openPrompt', requestId: 'q', path: 'a.prompt', line: 1.5 }, accept: false },
  { name: 'openPrompt, line NaN', msg: { type: 'openPrompt', requestId: 'q', path: 'a.prompt', line: NaN }, accept: false },
  { name: 'openPrompt, line Infinity', msg: { type: 'openPrompt', requestId: 'q', path: 'a.prompt', line: Infinity }, accept: false },
  { name: 'openPrompt, line a string', msg: { type: 'openPrompt', requestId: 'q', path: 'a.prompt', line: '12' }, accept: false },
  { name: 'openPrompt, line a BigInt', msg: { type: 'openPrompt', requestId: 'q', path: 'a.prompt', line: 12n }, accept: false },
  { name: 'openPrompt, line 2^53+1', msg: { type: 'openPrompt', requestId: 'q', path: 'a.prompt', line: 2 ** 53 + 1 }, accept: false },
  { name: 'openPrompt, well-formed', msg: { type: 'openPrompt', requestId: 'q1', path: 'prompts/malmm/coder.prompt', line: 12 }, accept: true },
  { name: 'selectTurn, turn -1', msg: { type: 'selectTurn', runId: 'r', turn: -1 }, accept: false },
  { name: 'selectTurn, turn 1e308', msg: { type: 'selectTurn', runId: 'r', turn: 1e308 }, accept: false },
  { name: 'selectTurn, no run id', msg: { type: 'selectTurn', turn: 3 }, accept: false },
  { name: 'selectTurn, a Date as turn', msg: { type: 'selectTurn', runId: 'r', turn: new Date(0) }, accept: false },
  { name: 'invalidMessage, message of 2001 chars', msg: { type: 'invalidMessage', message: 'm'.repeat(2001) }, accept: false },
  { name: 'invalidMessage, receivedType of 101 chars', msg: { type: 'invalidMessage', receivedType: 't'.repeat(101), message: 'm' }, accept: false },
  { name: 'invalidMessage, message a Map', msg: { type: 'invalidMessage', message: new Map([['a', 1]]) }, accept: false },
  { name: 'a Map', msg: new Map([['type', 'ready']]), accept: false },
  { name: 'a RegExp', msg: /ready/, accept: false },
  { name: 'an Error', msg: Object.assign(new Error('ready'), { type: 'ready' }), accept: false },
  { name: 'a typed array', msg: new Float64Array(16), accept: false },
  { name: 'an ArrayBuffer', msg: new ArrayBuffer(1024), accept: false },
  { name: 'a circular message', msg: circular(), accept: true },
  { name: 'deep nesting in an extra key', msg: { type: 'ready', extra: deepObject(5000) }, accept: true },
  { name: '__proto__ key (JSON)', msg: JSON.parse('{"type":"ready","__proto__":{"polluted":true}}') as unknown, accept: true },
  { name: 'constructor.prototype key', msg: { type: 'ready', constructor: { prototype: { polluted: true } } }, accept: true },
];

const ALLOWED_KEYS: Record<string, string[]> = {
  ready: ['type', 'runId'],
  selectTurn: ['type', 'runId', 'turn'],
  openPrompt: ['type', 'requestId', 'path', 'line'],
  invalidMessage: ['type', 'receivedType', 'message'],
};

export function webviewMessageCases(): void {
  describe('webview messages: malformed and hostile input through the zod schemas', () => {
    it('view -> host: every malformed message is rejected with an issue, accepted ones carry only known fields', () => {
      tally.tried++;
      for (const c of VIEW_MESSAGES) {
        const sent = cloned(c.msg);
        if (!sent.ok) continue;
        tally.fuzzInputs++;
        let r: ReturnType<typeof ViewToHost.safeParse>;
        try {
          r = ViewToHost.safeParse(sent.value);
        } catch (e) {
          assert.fail(`${c.name}: safeParse threw ${(e as Error).name}: ${(e as Error).message}`);
        }
        assert.equal(r.success, c.accept, `${c.name}: ${r.success ? 'accepted' : r.error.issues[0]?.message}`);
        if (r.success) {
          const keys = Object.keys(r.data);
          assert.ok(keys.every((k) => ALLOWED_KEYS[r.data.type].includes(k)), `${c.name}: only known keys survive (${keys.join(', ')})`);
          assert.equal(Object.getPrototypeOf(r.data), Object.prototype, `${c.name}: a plain object`);
        } else {
          assert.ok(r.error.issues.length > 0);
        }
      }
      assert.equal(polluted().polluted, undefined, 'no prototype pollution');
      tally.recorded++;
    });

    it('host -> view: parseHostToView rejects hostile init/append payloads with one line naming the place', () => {
      tally.tried++;
      const start = {
        seq: 0, tMs: 0, type: 'episode_start', schemaVersion: 1, runId: 'r', arch: 'malmm', agentVariant: 'malmm', task: 't', taskDescription: '', seed: 0, variant: 'default', ablations: {},
        model: { provider: 'reference', model: 'reference', label: 'reference' }, prompts: [], simulator: { name: 's' },
        options: { maxTurns: 1, maxConsecutiveErrors: 1, persistNamespace: false, codeTimeoutSecs: 1 }, startedAt: '2025-01-01T00:00:00Z',
      };
      const packed = (patch: Record<string, unknown>) => ({
        seq: 1, tMs: 0, type: 'trajectory_packed', turn: 1, rateHz: 50, n: 2, tSecs: new Float64Array(2), ee: new Float64Array(8), gripperWidth: new Float64Array(2), qposWidth: 1, qpos: new Float64Array(2), grasped: [{ from: 0, value: null }], ...patch,
      });
      const init = (events: unknown, extra: Record<string, unknown> = {}) => ({ type: 'init', runId: 'r', events, warnings: [], ...extra });
      const hostile: { name: string; msg: unknown }[] = [
        { name: 'events not an array', msg: init('[]') },
        { name: 'events an array-like', msg: init({ length: 1e9 }) },
        { name: '100k null events', msg: init(new Array(100_000).fill(null)) },
        { name: 'event with a negative seq', msg: init([{ ...start, seq: -1 }]) },
        { name: 'event of unknown type', msg: init([start, { seq: 1, tMs: 0, type: 'hologram' }]) },
        { name: 'packed: NaN in a column', msg: init([start, packed({ tSecs: Float64Array.of(0, NaN) })]) },
        { name: 'packed: Infinity in a column', msg: init([start, packed({ ee: new Float64Array(8).fill(Infinity) })]) },
        { name: 'packed: Float32Array column', msg: init([start, packed({ tSecs: new Float32Array(2) })]) },
        { name: 'packed: plain array column', msg: init([start, packed({ qpos: [0, 0] })]) },
        { name: 'packed: n larger than the columns', msg: init([start, packed({ n: 1e12 })]) },
        { name: 'packed: negative n', msg: init([start, packed({ n: -2 })]) },
        { name: 'packed: qposWidth NaN', msg: init([start, packed({ qposWidth: NaN })]) },
        { name: 'packed: grasp runs out of order', msg: init([start, packed({ grasped: [{ from: 0, value: null }, { from: 5, value: 'x' }] })]) },
        { name: 'packed: contact index out of range', msg: init([start, packed({ contacts: [{ index: 2, pairs: [] }] })]) },
        { name: 'warnings not an array', msg: init([start], { warnings: 'x' }) },
        { name: 'selectTurn 1e308', msg: { type: 'selectTurn', turn: 1e308 } },
        { name: 'response, requestId of 101 chars', msg: { type: 'response', requestId: 'q'.repeat(101), ok: true } },
        { name: 'append without run id', msg: { type: 'append', events: [] } },
        { name: 'unknown message type', msg: { type: 'eval', code: 'alert(1)' } },
        { name: 'a string', msg: '<script>alert(1)</script>' },
      ];
      for (const h of hostile) {
        const sent = cloned(h.msg);
        assert.ok(sent.ok, `${h.name}: postMessage can send it`);
        tally.fuzzInputs++;
        let r: ReturnType<typeof parseHostToView>;
        try {
          r = parseHostToView(sent.value);
        } catch (e) {
          assert.fail(`${h.name}: parseHostToView threw ${(e as Error).name}: ${(e as Error).message}`);
        }
        assert.equal(r.success, false, `${h.name}: rejected`);
        if (!r.success) assert.ok(r.error.length > 0 && r.error.length <= 500 && !r.error.includes('\n'), `${h.name}: one bounded line (${r.error.slice(0, 100)})`);
        // The two-step parse agrees with the whole-message schema.
        assert.equal(HostToView.safeParse(sent.value).success, false, `${h.name}: HostToView agrees`);
      }
      // A well-formed init with a packed trajectory still passes (the hostile cases failed for their fault only).
      assert.equal(parseHostToView(structuredClone(init([start, packed({})]))).success, true);
      tally.recorded++;
    });

    it('panel state restored after a reload: malformed states are rejected', () => {
      tally.tried++;
      for (const state of [{ tab: 'evil' }, { selectedTurn: -1 }, { selectedTurn: 0.5 }, { runId: '' }, { runId: 'r'.repeat(201) }, 'state', 5, [1]]) {
        tally.fuzzInputs++;
        assert.equal(RunViewerUiState.safeParse(structuredClone(state)).success, false, JSON.stringify(state));
      }
      assert.equal(RunViewerUiState.safeParse({ runId: '20250101-000000-malmm-stack_blocks-s0-abcd', selectedTurn: 3, tab: 'plots' }).success, true);
      assert.equal(RunViewerUiState.safeParse({ tab: 'floorplan' }).success, true, 'an architecture tab (LLaMAR) is restored');
      tally.recorded++;
    });

    it('run ids that are paths are refused wherever a view hands one back (ready, selectTurn, panel state)', () =>
      knownBug(async () => {
        tally.tried++;
        for (const runId of ['../../../../tmp/elsewhere', '..', 'a/b', 'a\\b', '/etc', 'run\0id']) {
          tally.fuzzInputs += 3;
          assert.equal(RunViewerUiState.safeParse({ runId }).success, false, `panel state runId ${JSON.stringify(runId)}`);
          assert.equal(ViewToHost.safeParse({ type: 'ready', runId }).success, false, `ready runId ${JSON.stringify(runId)}`);
          assert.equal(ViewToHost.safeParse({ type: 'selectTurn', runId, turn: 1 }).success, false, `selectTurn runId ${JSON.stringify(runId)}`);
        }
        tally.recorded++;
      }),
    );
  });
}
