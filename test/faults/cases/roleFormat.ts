// Replies in the wrong format for each MALMM role, from a model that otherwise answers as the reference policy:
// an unparseable Supervisor route (the loop falls back to the fixed cycle and records the format error), a
// Coder without a ```python block, a Planner talking nonsense, and every role answering with nothing.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Reply } from '../helpers/fakeModelServer.js';
import { expectFailedEnd, expectSuccess, faultCase, ofType, RECORDED, RECORDED_AND_RECOVERED, type Run } from '../helpers/harness.js';
import { REFERENCE, runAgainst } from './modelFaults.js';

// The loop's hard stop is the `loop.consecutive_error_stop` guard (the paper default has only the Coder's prompt
// rule); these cases turn it on, since a model that never answers usefully would otherwise run to the turn cap.
const GUARD = { launch: { ablations: { 'loop.consecutive_error_stop': true } } };

function formatErrors(run: Run, role: string, kind: string) {
  return ofType(run.events, 'parsed_output').filter((p) => p.role === role && p.kind === kind && !p.ok);
}

export function roleFormatCases(): void {
  describe('replies in the wrong format for each MALMM role', () => {
    it('Supervisor routes that do not parse: each recorded as a format error, the fixed cycle takes over, the task still succeeds', () =>
      faultCase('supervisor-unparseable', async (ws) => {
        const junk = ['', 'Next speaker: Critic', 'I think the robot should probably do something sensible now.', '{"next": "coder"}'];
        const { run } = await runAgainst(ws, (c) => (c.role === 'malmm/supervisor' ? { kind: 'text', text: junk[c.roleIndex % junk.length] } : REFERENCE));
        expectSuccess(run);
        const errors = formatErrors(run, 'supervisor', 'route');
        assert.equal(errors.length, ofType(run.events, 'role_call').filter((r) => r.role === 'supervisor').length, 'every route was recorded as a format error');
        assert.match(errors[0].error ?? '', /expected "Next speaker: Planner\|Coder\|Executor".*falling back to (Planner|Coder|Executor)/);
        const end = ofType(run.events, 'episode_end')[0];
        assert.equal(end.metrics.formatErrors, errors.length);
        return RECORDED_AND_RECOVERED;
      }));

    it('a Coder that never writes a code block: format errors recorded, the guard stops the episode at max_consecutive_errors', () =>
      faultCase('coder-no-block', async (ws) => {
        const { run } = await runAgainst(ws, (c) =>
          c.role === 'malmm/coder' ? { kind: 'text', text: 'I would move the gripper above the red block, then lower it and grasp.' } : REFERENCE,
        GUARD);
        expectFailedEnd(run, 'max_consecutive_errors', /5 consecutive errors/);
        const errors = formatErrors(run, 'coder', 'code');
        assert.ok(errors.length >= 1);
        assert.match(errors[0].error ?? '', /Coder: no ```python code block in the reply/);
        assert.equal(ofType(run.events, 'code_execution').length, 0, 'nothing was executed');
        return RECORDED;
      }));

    // A bare fence is read as Python (docs/parsing.md); a block in another language is not run.
    it('a Coder whose block is tagged with another language: the format error says so, the guard stops the episode at max_consecutive_errors', () =>
      faultCase('coder-other-language', async (ws) => {
        const { run } = await runAgainst(ws, (c) => (c.role === 'malmm/coder' ? { kind: 'text', text: '```bash\nopen_gripper\n```' } : REFERENCE), GUARD);
        expectFailedEnd(run, 'max_consecutive_errors');
        assert.match(formatErrors(run, 'coder', 'code')[0]?.error ?? '', /tagged ```bash; write the robot code in a ```python block/);
        return RECORDED;
      }));

    it('a Planner talking nonsense: the plan is recorded as given, the Coder cannot act on it, the episode stops labelled', () =>
      faultCase('planner-nonsense', async (ws) => {
        const nonsense = 'Colourless green ideas sleep furiously. \u202e\u0000 Step: banana. ```python\n``` }}{{';
        const { run } = await runAgainst(ws, (c) => (c.role === 'malmm/planner' ? { kind: 'text', text: nonsense } : REFERENCE), GUARD);
        expectFailedEnd(run, 'max_consecutive_errors');
        const plans = ofType(run.events, 'parsed_output').filter((p) => p.role === 'planner');
        assert.ok(plans.length >= 1 && plans[0].value === nonsense, 'the nonsense plan is in the trace verbatim');
        assert.ok(formatErrors(run, 'coder', 'code').length >= 1, 'the Coder\'s answers without code are recorded');
        return RECORDED;
      }));

    it('every role answering with an empty string: recorded format errors, max_consecutive_errors', () =>
      faultCase('all-empty', async (ws) => {
        const empty: Reply = { kind: 'text', text: '' };
        const { run } = await runAgainst(ws, () => empty, GUARD);
        expectFailedEnd(run, 'max_consecutive_errors');
        assert.ok(formatErrors(run, 'supervisor', 'route').length >= 1);
        return RECORDED;
      }));
  });
}
