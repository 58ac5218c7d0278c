import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { API_CATALOG } from '../../../../src/core/agents/apiCatalog.js';
import { ARCHITECTURES, CANONICAL_ARCHITECTURE_IDS, getArchitecture } from '../../../../src/core/agents/registry.js';

test('the registry holds exactly the canonical architectures, each described, with prompts on disk', () => {
  assert.deepEqual(Object.keys(ARCHITECTURES).sort(), [...CANONICAL_ARCHITECTURE_IDS].sort());
  for (const arch of Object.values(ARCHITECTURES)) {
    assert.ok(arch.description.length > 10 && arch.paper.length > 10, arch.id);
    assert.ok(arch.topologies[arch.defaultTopology], `${arch.id}: default topology exists`);
    assert.ok(API_CATALOG[arch.api], `${arch.id}: API ${arch.api} is catalogued`);
    for (const role of arch.roles) assert.ok(existsSync(join(process.cwd(), 'prompts', arch.id, role.promptFile)), `${arch.id}/${role.promptFile}`);
    for (const t of Object.values(arch.topologies)) for (const r of t.roles) assert.ok(arch.roles.some((x) => x.id === r), `${arch.id}: topology role ${r} is a role`);
    for (const [name, v] of Object.entries(arch.builtInVariants)) if (v.agent) assert.ok(arch.topologies[v.agent], `${arch.id}: variant ${name} names a topology`);
  }
  assert.throws(() => getArchitecture('nope'), /unknown architecture 'nope'; known: malmm/);
});

test('MALMM offers the paper\'s four configurations (Table II)', () => {
  assert.deepEqual(Object.keys(getArchitecture('malmm').topologies).sort(), ['ma', 'malmm', 'sa', 'sa_nofeedback']);
});
