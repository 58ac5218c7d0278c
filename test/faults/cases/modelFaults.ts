// Model endpoint faults: a local OpenAI-compatible server that rate-limits, fails, stalls, cuts bodies, sends
// empty or garbage completions, or reflects the API key, in front of the reference policies. Each run goes
// through launchRun with an `openai` model spec carrying the fake key.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FAKE_KEY } from '../helpers/isolate.js';
import { startFakeModelServer, type FakeModelServer, type ModelCall, type Reply } from '../helpers/fakeModelServer.js';
import {
  expectFailedEnd,
  expectSuccess,
  faultCase,
  knownBug,
  launch,
  ofType,
  openaiSpec,
  RECORDED,
  RECOVERED,
  type CaseOutcome,
  type Run,
} from '../helpers/harness.js';
import type { LaunchDeps, LaunchOptions, ModelSpec } from '../../../src/core/runs/launch.js';

export const REFERENCE: Reply = { kind: 'reference' };

/** Runs one episode against a fake endpoint that answers with `behave`, then closes it. */
export async function runAgainst(
  workspace: string,
  behave: (c: ModelCall) => Reply,
  o: { spec?: Partial<Extract<ModelSpec, { kind: 'openai' }>>; launch?: Partial<LaunchOptions>; deps?: Partial<LaunchDeps> } = {},
): Promise<{ run: Run; server: FakeModelServer }> {
  const server = await startFakeModelServer(behave);
  try {
    const run = await launch(workspace, { maxModelAttempts: 2, ...o.launch, model: openaiSpec(server.url, o.spec) }, o.deps);
    // The key really travelled to the endpoint (so a leak would have had something to leak).
    for (const c of server.calls) assert.equal(c.authorization, `Bearer ${FAKE_KEY}`);
    return { run, server };
  } finally {
    await server.close();
  }
}

/** The failing model_response: ok false, with this error kind and attempt count; the key is not in its text. */
function failedResponse(run: Run, kind: string, attempts: number, message?: RegExp) {
  const bad = ofType(run.events, 'model_response').filter((r) => !r.ok);
  assert.equal(bad.length, 1, 'one failed model call ends the episode');
  assert.equal(bad[0].error?.kind, kind, bad[0].error?.message);
  assert.equal(bad[0].attempts, attempts);
  if (message) assert.match(bad[0].error?.message ?? '', message);
  assert.ok(!(bad[0].error?.message ?? '').includes(FAKE_KEY));
  // The episode was under way when the call failed: earlier calls succeeded.
  return bad[0];
}

/** Fault from the n-th call on (earlier calls are answered normally, so the episode is mid-way). */
const from = (n: number, fault: Reply) => (c: ModelCall): Reply => (c.index >= n ? fault : REFERENCE);

function modelFailure(kind: string, attempts: number, message?: RegExp) {
  return (run: Run): CaseOutcome => {
    expectFailedEnd(run, 'model_error', new RegExp(`\\(${kind}\\)`));
    failedResponse(run, kind, attempts, message);
    return RECORDED;
  };
}

export function modelFaultCases(): void {
  describe('model endpoint faults', () => {
    it('429 with Retry-After (seconds, then retry-after-ms): waited out, retried, the episode succeeds', () =>
      faultCase('429-retry-after', async (ws) => {
        const { run, server } = await runAgainst(ws, (c) =>
          c.index === 1 ? { kind: 'status', status: 429, headers: { 'retry-after': '0.05' } } : c.index === 3 ? { kind: 'status', status: 429, headers: { 'retry-after-ms': '20' } } : REFERENCE,
        );
        expectSuccess(run);
        const responses = ofType(run.events, 'model_response');
        assert.deepEqual(responses.slice(0, 3).map((r) => r.attempts), [2, 2, 1]);
        assert.equal(server.calls.length, responses.length + 2);
        return RECOVERED;
      }));

    it('429 asking to wait an hour: not waited for, the episode ends with a labelled rate_limit model_error', () =>
      faultCase('429-too-long', async (ws) => {
        const { run } = await runAgainst(ws, from(4, { kind: 'status', status: 429, headers: { 'retry-after': '3600' } }), { launch: { maxModelAttempts: 5 } });
        return modelFailure('rate_limit', 1, /over the 60 s limit/)(run);
      }));

    it('500 once: retried with backoff, the episode succeeds', () =>
      faultCase('500-once', async (ws) => {
        const { run } = await runAgainst(ws, (c) => (c.index === 2 ? { kind: 'status', status: 500 } : REFERENCE));
        expectSuccess(run);
        assert.equal(ofType(run.events, 'model_response')[1].attempts, 2);
        return RECOVERED;
      }));

    it('500 on every call: the retries are exhausted and the episode ends with a server model_error', () =>
      faultCase('500-always', async (ws) => {
        const { run, server } = await runAgainst(ws, from(5, { kind: 'status', status: 500, message: 'upstream exploded' }));
        modelFailure('server', 2, /HTTP 500.*upstream exploded.*gave up after 2 attempts/)(run);
        assert.equal(server.calls.length, 4 + 2);
        return RECORDED;
      }));

    it('a response slower than the timeout: aborted, retried, then a timeout model_error', () =>
      faultCase('slow-always', async (ws) => {
        const { run } = await runAgainst(ws, from(3, { kind: 'hang' }), { spec: { timeoutMs: 1000 } });
        return modelFailure('timeout', 2, /no complete response within 1 s/)(run);
      }));

    it('one response slower than the timeout: the retry answers and the episode succeeds', () =>
      faultCase('slow-once', async (ws) => {
        const { run } = await runAgainst(ws, (c) => (c.index === 3 ? { kind: 'hang' } : REFERENCE), { spec: { timeoutMs: 1000 } });
        expectSuccess(run);
        assert.equal(ofType(run.events, 'model_response')[2].attempts, 2);
        return RECOVERED;
      }));

    it('a chunked body cut mid-transfer: a network model_error after the retries', () =>
      faultCase('cut-chunked', async (ws) => {
        const { run } = await runAgainst(ws, from(6, { kind: 'cut', chunked: true }));
        return modelFailure('network', 2)(run);
      }));

    it('a body shorter than its Content-Length (connection dropped): a network model_error after the retries', () =>
      faultCase('cut-length', async (ws) => {
        const { run } = await runAgainst(ws, from(2, { kind: 'cut', chunked: false }));
        return modelFailure('network', 2)(run);
      }));

    it('an event stream cut mid-event where a completion was expected: a bad_response model_error', () =>
      faultCase('cut-stream', async (ws) => {
        const body = 'data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"Next spea';
        const { run } = await runAgainst(ws, from(3, { kind: 'raw', status: 200, headers: { 'content-type': 'text/event-stream' }, body }));
        return modelFailure('bad_response', 1, /not a JSON chat completion/)(run);
      }));

    it('a complete 200 whose JSON is truncated: a bad_response model_error, not retried', () =>
      faultCase('json-truncated', async (ws) => {
        const { run } = await runAgainst(ws, from(4, { kind: 'raw', status: 200, headers: { 'content-type': 'application/json' }, body: '{"id":"x","object":"chat.completion","choi' }));
        return modelFailure('bad_response', 1)(run);
      }));

    it('an empty choices array: a bad_response model_error naming it', () =>
      faultCase('empty-choices', async (ws) => {
        const body = JSON.stringify({ id: 'x', object: 'chat.completion', created: 0, model: 'm', choices: [] });
        const { run } = await runAgainst(ws, from(2, { kind: 'raw', status: 200, headers: { 'content-type': 'application/json' }, body }));
        return modelFailure('bad_response', 1, /empty "choices" array/)(run);
      }));

    it('a choice without text content (content null, finish_reason length): a bad_response model_error', () =>
      faultCase('null-content', async (ws) => {
        const body = JSON.stringify({ id: 'x', object: 'chat.completion', created: 0, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: null }, finish_reason: 'length' }] });
        const { run } = await runAgainst(ws, from(3, { kind: 'raw', status: 200, headers: { 'content-type': 'application/json' }, body }));
        return modelFailure('bad_response', 1, /no text content \(finish_reason: length\)/)(run);
      }));

    it('garbage bytes labelled application/json: a bad_response model_error', () =>
      faultCase('garbage-json', async (ws) => {
        const body = '\u0000\u00ff{{{"choices": [garbage \ud83d';
        const { run } = await runAgainst(ws, from(2, { kind: 'raw', status: 200, headers: { 'content-type': 'application/json' }, body }));
        return modelFailure('bad_response', 1)(run);
      }));

    it('an HTML page with status 200 (a captive portal or proxy): a bad_response model_error', () =>
      faultCase('html-200', async (ws) => {
        const body = '<!doctype html><html><body><h1>Sign in to the hotel Wi-Fi</h1></body></html>';
        const { run } = await runAgainst(ws, from(1, { kind: 'raw', status: 200, headers: { 'content-type': 'text/html' }, body }));
        return modelFailure('bad_response', 1, /not a JSON chat completion/)(run);
      }));

    it('valid JSON of the wrong shape (choices is a string): a bad_response model_error', () =>
      faultCase('wrong-shape', async (ws) => {
        const { run } = await runAgainst(ws, from(1, { kind: 'raw', status: 200, headers: { 'content-type': 'application/json' }, body: '{"choices":"all of them"}' }));
        return modelFailure('bad_response', 1, /no "choices" array/)(run);
      }));

    it('a 401 whose message repeats the API key: an auth model_error, the key redacted everywhere', () =>
      faultCase('401-reflects-key', async (ws) => {
        const { run } = await runAgainst(ws, (c) => ({ kind: 'status', status: 401, message: `Incorrect API key provided: ${c.authorization?.replace(/^Bearer /, '')}` }));
        modelFailure('auth', 1, /not authorised \(HTTP 401\).*\[redacted\]/)(run);
        return RECORDED;
      }));

    it('a model base URL that is not http(s): the run is recorded as invalid_input naming the URL', () =>
      knownBug(() =>
        faultCase('bad-base-url', async (ws) => {
          const run = await launch(ws, { model: openaiSpec('file:///etc/passwd') });
          expectFailedEnd(run, 'invalid_input', /baseUrl must start with http:\/\/ or https:\/\//);
          return RECORDED;
        }),
      ));

    it('a server that puts the API key into the planner reply: the text is recorded with the key redacted', () =>
      faultCase('reply-reflects-key', async (ws) => {
        const { run } = await runAgainst(ws, (c) => (c.role === 'malmm/planner' ? { kind: 'text', text: `${c.reference()}\n(debug: your key is ${FAKE_KEY})` } : REFERENCE));
        expectSuccess(run);
        const planner = ofType(run.events, 'model_response').find((r) => r.role === 'planner');
        assert.match(planner?.text ?? '', /your key is \[redacted\]/);
        return RECOVERED;
      }));
  });
}
