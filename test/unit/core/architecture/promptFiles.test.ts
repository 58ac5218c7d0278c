// Built-in prompts live in their architecture's folder (<root>/<arch>/prompts/<file>); a workspace overrides them
// with prompts/<arch>/<file>. Either place tells the language server whose prompt a file is.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { architectureManifests } from '../../../../src/architectures/manifests.js';
import { builtInPromptDir, promptFileOf } from '../../../../src/core/architecture/promptFiles.js';
import { builtInPromptRoot } from '../../../../src/core/node/packageRoot.js';
import { rolePromptAt } from '../../../../src/core/prompt/analyze.js';

test('a prompt path names its architecture and file, in a workspace or built in', () => {
  assert.deepEqual(promptFileOf('/ws/prompts/malmm/coder.prompt'), { arch: 'malmm', file: 'coder.prompt', builtIn: false });
  assert.deepEqual(promptFileOf('/pkg/src/architectures/roco/prompts/dialog.prompt'), { arch: 'roco', file: 'dialog.prompt', builtIn: true });
  assert.deepEqual(promptFileOf('C:\\ws\\prompts\\llamar\\actor.prompt'), { arch: 'llamar', file: 'actor.prompt', builtIn: false });
  assert.equal(promptFileOf('/ws/notes/coder.prompt'), undefined);
  assert.equal(builtInPromptDir('/pkg/src/architectures', 'trajgen'), join('/pkg/src/architectures', 'trajgen', 'prompts'));
});

test('the built-in prompt files are where builtInPromptRoot says, and each is its role by place', () => {
  for (const m of architectureManifests.list()) {
    for (const r of m.roles) {
      const path = join(builtInPromptDir(builtInPromptRoot(), m.id), r.promptFile);
      assert.ok(existsSync(path), `${path} exists`);
      assert.deepEqual(rolePromptAt(path, architectureManifests), { arch: m.id, id: r.id, variables: r.variables }, path);
      assert.deepEqual(rolePromptAt(join('/ws', 'prompts', m.id, r.promptFile), architectureManifests)?.id, r.id);
    }
  }
  assert.equal(rolePromptAt('/ws/prompts/malmm/nothing.prompt', architectureManifests), undefined);
});
