// Template variables against what the architecture passes each role (RoleSpec.variables): a misspelt or missing
// variable renders empty, so it is an error in the editor and a refusal before a run. Scoping is Handlebars': each
// case below is also rendered by the real dotprompt renderer, and a variable is flagged exactly when it renders empty.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { architectureManifests } from '../../../../src/architectures/manifests.js';
import { analyzePrompt as analyze, type PromptDiagnostic, type PromptRole } from '../../../../src/core/prompt/analyze.js';
import { checkRoleVariables, parsePromptFile, PromptError, renderPrompt } from '../../../../src/core/prompt/render.js';

// The host's part: the analysis knows the architectures it is given, here the built-in ones.
const analyzePrompt: typeof analyze = (text, options) => analyze(text, { architectures: architectureManifests, ...options });

const PROMPTS = join(process.cwd(), 'src', 'architectures');
const VARIABLE_CODES = ['undefined-variable', 'optional-variable', 'never-passed', 'unknown-variable'];
const variableDiags = (ds: PromptDiagnostic[]) => ds.filter((d) => VARIABLE_CODES.includes(d.code));
const roleOf = (arch: string, id: string): PromptRole => {
  const r = architectureManifests.find(arch)!.roles.find((x) => x.id === id)!;
  return { arch, id, variables: r.variables };
};
const head = (arch: string, role: string, schema: string) => `---\ninput:\n  schema:\n${schema}waypoint.arch: ${arch}\nwaypoint.role: ${role}\n---\n{{role "user"}}\n`;

test("{{axess}} in MALMM's planner is an error on the variable, naming the names the planner is given and the near one", () => {
  const text = readFileSync(join(PROMPTS, 'malmm/prompts/planner.prompt'), 'utf8').replace('{{axes}}', '{{axess}}');
  const ds = variableDiags(analyzePrompt(text).diagnostics);
  assert.equal(ds.length, 1);
  const line = text.split('\n').findIndex((l) => l.includes('{{axess}}'));
  assert.deepEqual(ds[0]!.range, { start: { line, character: text.split('\n')[line]!.indexOf('axess') }, end: { line, character: text.split('\n')[line]!.indexOf('axess') + 5 } });
  assert.equal(ds[0]!.severity, 'error');
  assert.equal(ds[0]!.code, 'undefined-variable');
  assert.equal(ds[0]!.message, "Undefined variable 'axess' (did you mean 'axes'?): malmm's planner prompt is given task, table_top_z, x_range, y_range, axes; 'axess' would render empty");
  // The run's check is the same analysis: refused with the file and its 1-based line.
  assert.throws(
    () => parsePromptFile('/w/prompts/malmm/planner.prompt', text, roleOf('malmm', 'planner')),
    (e: unknown) => e instanceof PromptError && e.line === line + 1 && /Undefined variable 'axess' \(did you mean 'axes'\?\)/.test(e.detail) && e.message.endsWith('(/w/prompts/malmm/planner.prompt:' + (line + 1) + ')'),
  );
});

test('every built-in prompt passes the variable check of the role it serves, with no error in the editor', () => {
  const found: string[] = [];
  for (const m of architectureManifests.list()) {
    for (const r of m.roles) {
      const path = join(PROMPTS, m.id, 'prompts', r.promptFile);
      const text = readFileSync(path, 'utf8');
      // Not only the variable check: the editor must show no error at all in a prompt we ship (an error also
      // stops the extension's live run of that prompt).
      for (const d of analyzePrompt(text).diagnostics.filter((x) => x.severity === 'error' || variableDiags([x]).length > 0)) {
        found.push(`${m.id}/${r.promptFile}:${d.range.start.line + 1}: ${d.message}`);
      }
      try {
        parsePromptFile(path, text, roleOf(m.id, r.id));
      } catch (e) {
        found.push(String(e));
      }
    }
  }
  assert.deepEqual(found, []);
});

/** MALMM's single agent gets every MALMM variable; `api` is a list of {signature, doc}. */
const AGENT_VALUES = { task: 'T', ee_position: 'P', ee_yaw: 'Y', state: 'S', table_top_z: 'Z', x_range: 'X', y_range: 'R', axes: 'A', api: [{ signature: 'sig()', doc: 'D' }] };
const SCOPING: { body: string; empty: boolean }[] = [
  { body: '{{task}}', empty: false },
  { body: '{{tsk}}', empty: true },
  { body: '{{#each api}}{{signature}}{{/each}}', empty: false },
  { body: '{{#each api}}{{signatur}}{{/each}}', empty: true },
  { body: '{{#each api}}{{task}}{{/each}}', empty: true },
  { body: '{{#each api}}{{../task}}{{/each}}', empty: false },
  { body: '{{#each api}}{{@root.task}}{{/each}}', empty: false },
  { body: '{{#each api}}{{@root.tsk}}{{/each}}', empty: true },
  { body: '{{#each api}}{{@index}}{{/each}}', empty: false },
  { body: '{{#each api}}{{this.doc}}{{/each}}', empty: false },
  { body: '{{#each api}}{{#if doc}}{{../task}}{{/if}}{{/each}}', empty: false },
  { body: '{{#each api}}{{#if doc}}{{doc}}{{/if}}{{/each}}', empty: false },
  { body: '{{#each api as |fn i|}}{{fn.signature}}{{i}}{{/each}}', empty: false },
  { body: '{{#each api as |fn|}}{{fn.sig}}{{/each}}', empty: true },
  { body: '{{#each api as |fn|}}{{task}}{{/each}}', empty: true },
  { body: '{{#if task}}{{task}}{{/if}}', empty: false },
  { body: '{{#if task}}{{../task}}{{/if}}', empty: true },
  { body: '{{#ablation "x.y"}}{{axes}}{{/ablation}}', empty: false },
  { body: '{{#ablation "x.y"}}{{axis}}{{/ablation}}', empty: true },
  { body: '{{#api}}{{doc}}{{/api}}', empty: false },
  { body: '{{#api}}{{task}}{{/api}}', empty: true },
  { body: '{{#with api.[0]}}{{doc}}{{/with}}', empty: false },
  { body: '{{task.length}}', empty: false },
  { body: '{{task.size}}', empty: true },
  { body: '{{api.length}}', empty: false },
  { body: '{{api.0.doc}}', empty: false },
  { body: '{{api.doc}}', empty: true },
  { body: '{{json api}}', empty: false },
];

test('scoping follows Handlebars: a variable is flagged exactly when the real renderer leaves it empty', async () => {
  const schema = Object.keys(AGENT_VALUES).map((k) => `    ${k}: any, ${k}\n`).join('');
  for (const c of SCOPING) {
    const text = head('malmm', 'agent', schema) + `[${c.body}]\n`;
    const flagged = variableDiags(analyzePrompt(text).diagnostics).filter((d) => d.severity === 'error');
    const rendered = await renderPrompt(parsePromptFile('agent.prompt', text), { variables: AGENT_VALUES });
    const out = rendered.messages[0]!.content;
    assert.equal(out === '[]', c.empty, `${c.body} renders ${out}`);
    assert.equal(flagged.length > 0, c.empty, `${c.body}: ${flagged.map((d) => d.message).join('; ') || 'not flagged'}`);
  }
});

test('an item field names the list and its fields; `../` above the root is named as such', () => {
  const schema = '    task: string, t\n    api(array): any, a\n';
  const msg = (body: string) => variableDiags(analyzePrompt(head('malmm', 'agent', schema) + body + '\n').diagnostics).map((d) => d.message);
  assert.deepEqual(msg('{{#each api}}{{signatur}}{{/each}}'), ["'signatur' is not a field of an item of 'api' (fields: signature, doc); did you mean 'signature'?: it renders empty"]);
  assert.deepEqual(msg('{{#if task}}{{../task}}{{/if}}'), ["'../task' climbs above the prompt's variables (no each/with block encloses it; if, unless and ablation blocks do not count): it renders empty"]);
  assert.match(msg('{{api.doc}}')[0]!, /'doc' is not a field of 'api', which is a list .*\{\{#each\}\}/);
});

test("a variable given only on some calls must be declared optional (name?); declared so, it is not flagged", () => {
  const main = roleOf('trajgen', 'main');
  const base = '    task: string, t\n    ee_position: string, p\n    numpy: boolean, n\n';
  // Not declared at all: flagged on the use, and the run refuses it.
  const undeclared = head('trajgen', 'main', base) + '{{task}} {{ee_position}} {{numpy}} {{#if failure_summary}}{{failure_summary}}{{/if}}\n';
  const ds = variableDiags(analyzePrompt(undeclared).diagnostics);
  assert.deepEqual(ds.map((d) => [d.code, d.severity]), [['optional-variable', 'error'], ['optional-variable', 'error']]);
  assert.match(ds[0]!.message, /'failure_summary' is given to trajgen's main prompt only on some calls .*declare it optional in input.schema \('failure_summary\?: string, \.\.\.'\)/);
  assert.throws(() => parsePromptFile('main.prompt', undeclared, main), /'failure_summary' is given to trajgen's main prompt only on some calls.*\(and 1 more variable problem in this file\)/);
  // Declared required: the calls without it would stop, so the declaration is the error.
  const required = head('trajgen', 'main', base + '    failure_summary: string, s\n') + '{{task}} {{ee_position}} {{numpy}} {{failure_summary}}\n';
  const req = variableDiags(analyzePrompt(required).diagnostics);
  assert.deepEqual(req.map((d) => [d.code, d.range.start.line]), [['optional-variable', 6], ['optional-variable', 11]]);
  assert.match(req[0]!.message, /declared required, but trajgen's main prompt is given it only on some calls/);
  // Declared optional: fine in the editor and for the run.
  const optional = head('trajgen', 'main', base + '    failure_summary?: string, s\n') + '{{task}} {{ee_position}} {{numpy}} {{#if failure_summary}}{{failure_summary}}{{/if}}\n';
  assert.deepEqual(variableDiags(analyzePrompt(optional).diagnostics), []);
  parsePromptFile('main.prompt', optional, main);
});

test('declared optional but never given: a warning (it always renders empty), not a refusal; input.default defines a name', async () => {
  const never = head('malmm', 'planner', '    task: string, t\n    retries?: integer, r\n') + '{{task}} {{retries}}\n';
  const ds = variableDiags(analyzePrompt(never).diagnostics);
  assert.deepEqual(ds.map((d) => [d.code, d.severity]), [['never-passed', 'warning']]);
  assert.match(ds[0]!.message, /'retries' is declared optional, but malmm's planner prompt is never given it/);
  parsePromptFile('planner.prompt', never, roleOf('malmm', 'planner'));
  const requiredNever = head('malmm', 'planner', '    task: string, t\n    retries: integer, r\n') + '{{task}}\n';
  assert.throws(() => parsePromptFile('planner.prompt', requiredNever, roleOf('malmm', 'planner')), (e: unknown) => e instanceof PromptError && e.line === 5 && /'retries' is declared required, but malmm's planner prompt is never given it/.test(e.detail));
  // dotprompt renders input.default's value when a call passes none: the name is defined, required or not.
  const withDefault = `---\ninput:\n  schema:\n    task: string, t\n    retries: integer, r\n  default:\n    retries: 0\nwaypoint.arch: malmm\nwaypoint.role: planner\n---\n{{role "user"}}\n{{task}} {{retries}}\n`;
  assert.deepEqual(variableDiags(analyzePrompt(withDefault).diagnostics), []);
  const file = parsePromptFile('planner.prompt', withDefault, roleOf('malmm', 'planner'));
  // and a render without it takes the default instead of stopping with "missing value".
  const rendered = await renderPrompt(file, { variables: { task: 'T', table_top_z: 'Z', x_range: 'X', y_range: 'Y', axes: 'A' } });
  assert.equal(rendered.messages[0]!.content, 'T 0');
});

test('the role a run gives the file wins over its front matter (a workspace copy without waypoint keys is checked too)', () => {
  const bare = '{{role "user"}}\nAxes: {{axess}}\n';
  // No role known: only a warning against the (empty) input.schema.
  assert.deepEqual(variableDiags(analyzePrompt(bare).diagnostics).map((d) => [d.code, d.severity]), [['unknown-variable', 'warning']]);
  const ds = variableDiags(analyzePrompt(bare, { role: roleOf('malmm', 'planner') }).diagnostics);
  assert.deepEqual(ds.map((d) => [d.code, d.severity, d.range.start.line]), [['undefined-variable', 'error', 1]]);
  assert.throws(() => checkRoleVariables(parsePromptFile('p.prompt', bare), roleOf('malmm', 'planner')), (e: unknown) => e instanceof PromptError && e.line === 2 && /'axess' \(did you mean 'axes'\?\)/.test(e.detail));
});
