import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { API_CATALOG } from '../../../src/core/apis/catalog.js';
import { manifestProblems, resolveLimits } from '../../../src/core/architecture/limits.js';
import { architectureManifests } from '../../../src/architectures/manifests.js';
import { architectures, CANONICAL_ARCHITECTURE_IDS, registryMismatches } from '../../../src/architectures/registry.js';
import type { ArchitectureManifest } from '../../../src/core/architecture/types.js';
import { registerReferencePolicies } from '../../../src/core/llm/reference/policies.js';
import { defaultRolePolicies } from '../../../src/core/llm/reference/policy.js';
import { nodeIO } from '../../../src/core/node/nodeHost.js';
import { preflightRun } from '../../../src/core/runs/preflight.js';
import { ROBOT_APIS } from '../../../src/core/sim/mujoco/apis/registry.js';

test('every registered architecture has its prompts, its API family in the catalog and the simulator, and a reference policy per role', () => {
  assert.deepEqual(architectures.ids().sort(), [...CANONICAL_ARCHITECTURE_IDS].sort());
  assert.deepEqual(registryMismatches(), []);
  registerReferencePolicies(architectures);
  for (const arch of architectures.list()) {
    assert.deepEqual(manifestProblems(arch), [], arch.id);
    assert.ok(arch.description.length > 10 && arch.paper.length > 10, arch.id);
    assert.ok(API_CATALOG.has(arch.api), `${arch.id}: API ${arch.api} is in the catalog`);
    if (arch.simulator === 'tabletop') {
      const served = ROBOT_APIS.get(arch.api);
      assert.ok(served, `${arch.id}: the tabletop serves API ${arch.api}`);
      assert.deepEqual(served.functions, API_CATALOG.get(arch.api)!.functions, `${arch.id}: the simulator serves the catalog's functions`);
    }
    for (const role of arch.roles) {
      assert.ok(existsSync(join(process.cwd(), 'src', 'architectures', arch.id, 'prompts', role.promptFile)), `${arch.id}/${role.promptFile}`);
      assert.ok(defaultRolePolicies.get(arch.id, role.id), `reference policy for ${arch.id}/${role.id}`);
    }
    for (const [name, v] of Object.entries(arch.builtInVariants)) if (v.agent) assert.ok(arch.topologies[v.agent], `${arch.id}: variant ${name} names a topology`);
    assert.deepEqual(architectureManifests.find(arch.id)?.limits, arch.limits, `${arch.id}: manifest and definition agree`);
  }
  assert.throws(() => architectures.get('nope'), /unknown architecture 'nope'; known: .*\bmalmm\b/);
});

test('every built-in variant of every architecture starts with the built-in prompts (each ablation it switches is in the prompts its topology runs, or declared in code)', async () => {
  const refused: string[] = [];
  for (const arch of architectures.list()) {
    for (const name of Object.keys(arch.builtInVariants)) {
      await preflightRun(nodeIO, { architectures, workspace: process.cwd(), arch: arch.id, variant: name, builtInPromptRoot: join(process.cwd(), 'src', 'architectures') }).catch((err: unknown) => refused.push(`${arch.id}/${name}: ${err instanceof Error ? err.message : String(err)}`));
    }
  }
  assert.deepEqual(refused, []);
});

test("MALMM offers the paper's four configurations (Table II) and declares its two limits", () => {
  const m = architectures.get('malmm');
  assert.deepEqual(Object.keys(m.topologies).sort(), ['ma', 'malmm', 'sa', 'sa_nofeedback']);
  assert.deepEqual(m.limits.map((l) => [l.id, l.default]), [['maxTurns', 150], ['maxConsecutiveErrors', 5]]);
});

const base: ArchitectureManifest = {
  ...architectureManifests.find('malmm')!,
  id: 'demo',
};

test('a limit declared with a default of the wrong type is a problem naming the architecture and the limit', () => {
  const bad = { ...base, limits: [{ id: 'maxRounds', label: 'Rounds', type: 'int' as const, default: 2.5, description: 'rounds' }] };
  assert.deepEqual(manifestProblems(bad), ["architecture 'demo' declares limit 'maxRounds' with type int but its default 2.5 is not an integer"]);
  const flag = { ...base, limits: [{ id: 'useFeedback', label: 'Feedback', type: 'bool' as const, default: 1, description: 'x' }] };
  assert.match(manifestProblems(flag)[0]!, /limit 'useFeedback' with type bool but its default 1 is not true or false/);
  const dup = { ...base, limits: [...base.limits, base.limits[0]!] };
  assert.match(manifestProblems(dup).join(';'), /declares limit 'maxTurns' twice/);
});

test('limits given by name are checked against the declarations: unknown names and bad values name the choices', () => {
  const m = architectureManifests.find('malmm')!;
  // The architecture's own limits, then the engine's caps every architecture has.
  const caps = { maxWallSecs: 3600, maxSimSecs: 3600 };
  assert.deepEqual(resolveLimits(m, {}), { ok: true, limits: { maxTurns: 150, maxConsecutiveErrors: 5, ...caps } });
  assert.deepEqual(resolveLimits(m, { maxTurns: '30' }), { ok: true, limits: { maxTurns: 30, maxConsecutiveErrors: 5, ...caps } });
  assert.deepEqual(resolveLimits(m, { maxRounds: 3 }), { ok: false, name: 'maxRounds', error: "unknown limit 'maxRounds' for malmm; its limits: maxTurns, maxConsecutiveErrors, maxWallSecs, maxSimSecs" });
  // A near miss names the declared limit it probably meant (a sweep file's `limits: {maxTurn: 10}`).
  assert.deepEqual(resolveLimits(m, { maxTurn: 10 }), { ok: false, name: 'maxTurn', error: "unknown limit 'maxTurn' for malmm (did you mean 'maxTurns'?); its limits: maxTurns, maxConsecutiveErrors, maxWallSecs, maxSimSecs" });
  const r = resolveLimits(m, { maxTurns: '0' });
  assert.equal(r.ok, false);
  assert.match(!r.ok ? r.error : '', /limit maxTurns of malmm must be an integer >= 1; "0" is below the minimum 1/);
  assert.equal(resolveLimits(m, { maxTurns: 'ten' }).ok, false);
});
