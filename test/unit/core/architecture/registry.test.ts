// The engine knows the architectures a host registers, and only those: an id is looked up in the registry passed
// in (no module-level list in src/core), a taken id is refused, and each definition brings its reference policies.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { architectures } from '../../../../src/architectures/registry.js';
import { ArchitectureRegistry } from '../../../../src/core/architecture/registry.js';
import type { ArchitectureDefinition, ArchitectureManifest } from '../../../../src/core/architecture/types.js';
import { registerReferencePolicies } from '../../../../src/core/llm/reference/policies.js';
import { nodeIO } from '../../../../src/core/node/nodeHost.js';
import { analyzePrompt } from '../../../../src/core/prompt/analyze.js';
import { preflightRun } from '../../../../src/core/runs/preflight.js';

const malmm = architectures.get('malmm');
const mine = (over: Partial<ArchitectureDefinition> = {}): ArchitectureDefinition => ({ ...malmm, id: 'mine', label: 'Mine', ...over });

test('a registry finds what was registered, refuses a taken id and names the known ones for an unknown id', () => {
  const r = new ArchitectureRegistry([mine()]);
  assert.deepEqual(r.ids(), ['mine']);
  assert.equal(r.find('malmm'), undefined);
  assert.throws(() => r.register(mine()), /architecture 'mine' is already registered/);
  r.register(malmm);
  assert.deepEqual(r.ids(), ['mine', 'malmm']);
  assert.throws(() => r.get('nope'), /^Error: unknown architecture 'nope'; known: malmm, mine$/);
  assert.deepEqual(r.apiFunctions('mine'), architectures.apiFunctions('malmm'));
  // A definition whose declarations are wrong is refused when a run asks for it, naming the problem.
  r.register(mine({ id: 'broken', defaultTopology: 'nowhere' }));
  assert.throws(() => r.get('broken'), /architecture 'broken': default topology 'nowhere' is not one of/);
});

test('a run asks the registry it is given: an architecture it lacks is unknown, whatever is built in', async () => {
  const only = new ArchitectureRegistry([mine()]);
  await assert.rejects(
    preflightRun(nodeIO, { architectures: only, workspace: process.cwd(), arch: 'malmm', builtInPromptRoot: join(process.cwd(), 'src', 'architectures') }),
    /unknown architecture 'malmm'; known: mine/,
  );
});

test('prompt analysis knows the architectures it is given, and none without them', () => {
  const text = '---\nwaypoint.arch: mine\nwaypoint.role: coder\n---\nUse move_to.\n';
  const manifests = new ArchitectureRegistry<ArchitectureManifest>([mine()]);
  const known = analyzePrompt(text, { architectures: manifests });
  assert.ok(!known.diagnostics.some((d) => d.code === 'unknown-arch'), JSON.stringify(known.diagnostics));
  assert.deepEqual(known.api.map((f) => f.name), (architectures.apiFunctions('malmm') ?? []).map((f) => f.name));
  const unknown = analyzePrompt(text);
  assert.ok(unknown.diagnostics.some((d) => d.code === 'unknown-arch'));
  assert.deepEqual(unknown.api, []);
});

test("the reference model gets each registered architecture's policies through its definition", () => {
  let calls = 0;
  registerReferencePolicies(new ArchitectureRegistry([mine({ registerReferencePolicies: () => void calls++ }), mine({ id: 'plain', registerReferencePolicies: undefined })]));
  assert.equal(calls, 1);
});
