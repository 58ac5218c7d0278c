// Variable shapes from Picoschema and JSON Schema, read the way dotprompt's own parser reads them (optional `name?`,
// lists, objects, enums, wildcards), and the engine's check of a call's variables against a role's declaration.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { picoschema } from 'dotprompt';
import { architectureManifests } from '../../../../src/architectures/manifests.js';
import { fieldProblems, readSchemaShapes } from '../../../../src/core/prompt/schema.js';

const PICO = {
  task: 'string, the task',
  'note?': 'string, sometimes',
  'api(array, the functions)': { signature: 'string', 'doc?': 'string' },
  'tags?(array)': 'string',
  'pose(object)': { x: 'number', y: 'number' },
  'mode(enum)': ['fast', 'slow'],
  plan: 'PlanSchema',
};

test('Picoschema: optional marks, lists with item fields, objects, enums and named schemas', () => {
  const { vars, open } = readSchemaShapes(PICO);
  assert.equal(open, false);
  assert.deepEqual(Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, [v.type, v.optional]])), {
    task: ['string', false],
    note: ['string', true],
    api: ['array', false],
    tags: ['array', true],
    pose: ['object', false],
    mode: ['enum', false],
    plan: ['any', false],
  });
  assert.deepEqual(Object.keys(vars.api!.items!.fields!), ['signature', 'doc']);
  assert.equal(vars.api!.items!.fields!.doc!.optional, true);
  assert.deepEqual(Object.keys(vars.pose!.fields!), ['x', 'y']);
  assert.equal(readSchemaShapes({ task: 'string', '(*)': 'any' }).open, true, 'a wildcard admits any name');
  assert.equal(readSchemaShapes('NamedSchema').open, true, 'a named schema is opaque');
});

test("optional is what dotprompt's own Picoschema parser leaves out of `required`", async () => {
  const json = (await picoschema(PICO, { schemaResolver: async () => ({ type: 'object' }) })) as { required: string[]; properties: Record<string, unknown> };
  const { vars } = readSchemaShapes(PICO);
  assert.deepEqual(Object.keys(vars).sort(), Object.keys(json.properties).sort());
  assert.deepEqual(Object.keys(vars).filter((k) => !vars[k]!.optional).sort(), [...json.required].sort());
  // The same JSON Schema, read directly, gives the same shapes.
  const again = readSchemaShapes(json).vars;
  assert.deepEqual(Object.keys(again).filter((k) => again[k]!.optional).sort(), ['note', 'tags']);
  assert.deepEqual(Object.keys(again.api!.items!.fields!), ['signature', 'doc']);
});

test("a call's variables against a role's declaration: undeclared, missing and mis-shaped values are named", () => {
  const { vars } = readSchemaShapes({ task: 'string', 'summary?': 'string', 'api(array)': { signature: 'string', doc: 'string' } });
  assert.deepEqual(fieldProblems({ task: 't', api: [{ signature: 's', doc: 'd' }] }, vars, ''), []);
  assert.deepEqual(fieldProblems({ task: 't', summary: 's', api: [] }, vars, ''), []);
  assert.deepEqual(fieldProblems({ api: [{ signature: 's', doc: 'd', extra: 1 }], tsk: 't' }, vars, ''), ['tsk is not declared', 'task is missing', 'api[0].extra is not declared']);
  assert.deepEqual(fieldProblems({ task: 't', api: 'x' }, vars, ''), ['api is declared a list but is string']);
});

test('every role of every architecture declares its variables in Picoschema that dotprompt reads', async () => {
  for (const m of architectureManifests.list()) {
    for (const r of m.roles) {
      const json = (await picoschema(r.variables)) as { properties: Record<string, unknown> };
      assert.deepEqual(Object.keys(readSchemaShapes(r.variables).vars).sort(), Object.keys(json.properties).sort(), `${m.id}/${r.id}`);
    }
  }
});
