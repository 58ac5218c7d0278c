import assert from 'node:assert/strict';
import { test } from 'node:test';
import { architectures } from '../../../src/architectures/registry.js';
import { parseVariants } from '../../../src/core/prompt/variants.js';
import { buildAgentsTree, type AgentNode } from '../../../src/extension/views/agentsModel.js';

const archs = architectures.list();
const folder = (n: AgentNode, label: string) => (n.kind === 'arch' ? n.children.find((c) => c.kind === 'folder' && c.label === label) : undefined);
const kids = (n: AgentNode | undefined) => (n && n.kind === 'folder' ? n.children : []);

test('one node per architecture with topologies, prompts and variants', () => {
  const tree = buildAgentsTree(archs, { builtInPromptRoot: '/ext/src/architectures', workspacePromptRoot: '/w/prompts', overrides: new Set() }, parseVariants('v', ''));
  assert.deepEqual(tree.map((n) => n.id), architectures.ids());
  const malmm = tree[0];
  assert.deepEqual(kids(folder(malmm, 'Topologies')).map((t) => t.id.split('/').pop()), Object.keys(architectures.get('malmm').topologies));
  const prompts = kids(folder(malmm, 'Prompts'));
  assert.equal(prompts.length, architectures.get('malmm').roles.length);
  for (const p of prompts) if (p.kind === 'prompt') assert.equal(p.path, `/ext/src/architectures/malmm/prompts/${p.label}`);
});

test('a workspace prompt overrides its role only; the active variant is marked', () => {
  const role = architectures.get('malmm').roles[0];
  const tree = buildAgentsTree(archs, { builtInPromptRoot: '/ext/src/architectures', workspacePromptRoot: '/w/prompts', overrides: new Set([`malmm/${role.promptFile}`]) }, parseVariants('v', 'active: sa\n'));
  const prompts = kids(folder(tree[0], 'Prompts'));
  const overridden = prompts.filter((p) => p.kind === 'prompt' && p.override);
  assert.deepEqual(overridden.map((p) => (p.kind === 'prompt' ? p.path : '')), [`/w/prompts/malmm/${role.promptFile}`]);
  const variants = kids(folder(tree[0], 'Variants'));
  const active = variants.filter((v) => v.kind === 'variant' && v.active);
  assert.deepEqual(active.map((v) => v.label), ['sa (active)']);
});
