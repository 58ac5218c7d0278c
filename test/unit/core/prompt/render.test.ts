import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { listAblationIds, parsePromptFile, PromptError, renderPrompt } from '../../../../src/core/prompt/render.js';

const SRC = `---
config:
  temperature: 0
input:
  schema:
    task: string, the instruction
    extra?: string, optional note
waypoint.arch: malmm
waypoint.role: coder
---
{{role "system"}}
[waypoint-role: malmm/coder]
Task: {{task}}
{{#ablation "coder.step_by_step" label="Step by step"}}
ONE STEP PER BLOCK
{{else}}
ALL STEPS AT ONCE
{{/ablation}}
{{#ablation "coder.reminder" label="Reminder"}}
REMEMBER THE CENTER
{{/ablation}}
{{history}}
{{role "user"}}
Go.
`;

test('parses front matter: role, arch, documented variables, config, body start line', () => {
  const f = parsePromptFile('coder.prompt', SRC);
  assert.equal(f.role, 'coder');
  assert.equal(f.arch, 'malmm');
  assert.equal(f.config.temperature, 0);
  assert.deepEqual(f.variables, [
    { name: 'task', type: 'string', optional: false, doc: 'the instruction' },
    { name: 'extra', type: 'string', optional: true, doc: 'optional note' },
  ]);
  assert.equal(f.bodyStartLine, 11);
  assert.match(f.sha256, /^[0-9a-f]{64}$/);
});

test('ablation on renders the block; off renders the else part; off without else renders nothing', async () => {
  const f = parsePromptFile('coder.prompt', SRC);
  const on = await renderPrompt(f, { variables: { task: 'stack' } });
  assert.match(on.messages[0].content, /ONE STEP PER BLOCK/);
  assert.doesNotMatch(on.messages[0].content, /ALL STEPS AT ONCE/);
  assert.match(on.messages[0].content, /REMEMBER THE CENTER/);
  assert.deepEqual(on.ablationsSeen, { 'coder.step_by_step': true, 'coder.reminder': true });

  const off = await renderPrompt(f, { variables: { task: 'stack' }, ablations: { 'coder.step_by_step': false, 'coder.reminder': false } });
  assert.match(off.messages[0].content, /ALL STEPS AT ONCE/);
  assert.doesNotMatch(off.messages[0].content, /ONE STEP PER BLOCK/);
  assert.doesNotMatch(off.messages[0].content, /REMEMBER THE CENTER/);
  assert.deepEqual(off.ablationsSeen, { 'coder.step_by_step': false, 'coder.reminder': false });
});

test('history goes where {{history}} stands, between the system prompt and the final user message', async () => {
  const f = parsePromptFile('coder.prompt', SRC);
  const r = await renderPrompt(f, {
    variables: { task: 'stack' },
    history: [
      { role: 'user', content: 'Planner:\nStep 1' },
      { role: 'assistant', content: '```python\nopen_gripper()\n```' },
    ],
  });
  assert.deepEqual(r.messages.map((m) => m.role), ['system', 'user', 'assistant', 'user']);
  assert.equal(r.messages[1].content, 'Planner:\nStep 1');
  assert.equal(r.messages[3].content, 'Go.');
});

test('missing required variable is an error naming the file and the variable', async () => {
  const f = parsePromptFile('coder.prompt', SRC);
  await assert.rejects(() => renderPrompt(f, { variables: {} }), (e: unknown) => e instanceof PromptError && /missing value for variable task/.test(e.message) && /coder\.prompt/.test(e.message));
});

test('broken YAML front matter: error names the file line of the YAML problem', () => {
  const dup = SRC.replace('  temperature: 0', '  temperature: 0\n  temperature: 1');
  assert.throws(() => parsePromptFile('bad.prompt', dup), (e: unknown) => e instanceof PromptError && e.line === 4 && /invalid YAML.*unique/.test(e.message) && /bad\.prompt:4/.test(e.message));
  // An unclosed flow sequence is noticed where the next key starts (file line 4).
  const open = SRC.replace('  temperature: 0', '  temperature: [0');
  assert.throws(() => parsePromptFile('bad.prompt', open), (e: unknown) => e instanceof PromptError && e.line === 4);
});

test('unclosed ablation block: the error names its id and the file line that opened it (not the end of the file)', () => {
  const bad = SRC.replace('{{/ablation}}\n{{#ablation "coder.reminder"', '{{#ablation "coder.reminder"');
  assert.throws(
    () => parsePromptFile('bad.prompt', bad),
    (e: unknown) => e instanceof PromptError && e.detail === 'unclosed {{#ablation "coder.step_by_step"}} block: no {{/ablation}} closes it' && e.line === 14,
  );
  // A stray close is reported where it is.
  const stray = SRC.replace('Task: {{task}}', 'Task: {{task}}\n{{/ablation}}');
  assert.throws(() => parsePromptFile('bad.prompt', stray), (e: unknown) => e instanceof PromptError && /closes no open/.test(e.detail) && e.line === 14);
});

test('front matter without a closing --- is reported at line 1', () => {
  assert.throws(() => parsePromptFile('x.prompt', '---\nconfig: {}\nHello'), (e: unknown) => e instanceof PromptError && e.line === 1);
});

test('every built-in prompt parses, declares its role and renders with its declared variables', async () => {
  const root = join(process.cwd(), 'src', 'architectures');
  const archs = readdirSync(root).filter((n) => existsSync(join(root, n, 'prompts')));
  assert.ok(archs.length >= 5, `built-in prompt folders under ${root}: ${archs.join(', ')}`);
  for (const arch of archs) {
    for (const name of readdirSync(join(root, arch, 'prompts')).filter((n) => n.endsWith('.prompt'))) {
      const f = parsePromptFile(name, readFileSync(join(root, arch, 'prompts', name), 'utf8'));
      assert.ok(f.role, `${arch}/${name} declares waypoint.role`);
      assert.equal(f.arch, arch);
      const vars = Object.fromEntries(f.variables.map((v) => [v.name, v.name === 'api' ? [{ signature: 'f()', doc: 'd' }] : 'x']));
      const r = await renderPrompt(f, { variables: vars });
      assert.doesNotMatch(r.messages[0].content, /waypoint-role/, `${name}: no role marker reaches the model`);
      assert.deepEqual(Object.keys(r.ablationsSeen).sort(), listAblationIds(f.source).sort(), `${name}: every ablation id is evaluated`);
    }
  }
});
