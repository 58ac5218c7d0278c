// The example workspace as users get it (Open Example Workspace…, the walkthrough) and the e2e tests open it.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { nodeIO } from '../../../../src/core/node/nodeHost.js';
import { parseVariants } from '../../../../src/core/prompt/variants.js';
import { writeExampleWorkspace } from '../../../../src/core/runs/exampleWorkspace.js';

const tmp = mkdtempSync(join(tmpdir(), 'waypoint-example-'));
after(() => rmSync(tmp, { recursive: true, force: true }));
const repo = process.cwd();

test('writes the template and the current built-in prompts; a second time keeps what is there', async () => {
  const target = join(tmp, 'a', 'waypoint-example');
  const first = await writeExampleWorkspace(nodeIO, repo, target);
  assert.deepEqual([...first.written].sort(), ['.waypoint/variants.yaml', 'README.md', 'prompts/malmm/coder.prompt', 'prompts/malmm/planner.prompt', 'prompts/malmm/sa.prompt', 'prompts/malmm/supervisor.prompt']);
  for (const f of ['coder', 'planner', 'sa', 'supervisor']) {
    assert.equal(readFileSync(join(target, 'prompts/malmm', `${f}.prompt`), 'utf8'), readFileSync(join(repo, 'src/architectures/malmm/prompts', `${f}.prompt`), 'utf8'), `${f}.prompt is the built-in one`);
  }
  const variants = parseVariants('variants.yaml', readFileSync(join(target, '.waypoint/variants.yaml'), 'utf8'));
  assert.equal(variants.active, 'default');
  assert.equal(first.firstPrompt, join(target, 'prompts/malmm/coder.prompt'));

  writeFileSync(join(target, 'prompts/malmm/coder.prompt'), 'my edit');
  rmSync(join(target, 'README.md'));
  const second = await writeExampleWorkspace(nodeIO, repo, target);
  assert.deepEqual(second.written, ['README.md'], 'only the missing file');
  assert.equal(readFileSync(join(target, 'prompts/malmm/coder.prompt'), 'utf8'), 'my edit');
});

test('an installation without the template says which file is missing', async () => {
  const fakeRoot = join(tmp, 'broken-install');
  await nodeIO.mkdirp(join(fakeRoot, 'src', 'architectures', 'malmm', 'prompts'));
  writeFileSync(join(fakeRoot, 'src', 'architectures', 'malmm', 'prompts', 'coder.prompt'), '---\n---\nx');
  await assert.rejects(writeExampleWorkspace(nodeIO, fakeRoot, join(tmp, 'b')), /the example's file .*examples\/workspace\/README\.md is missing from the installation/);
  assert.equal(existsSync(join(tmp, 'b', 'README.md')), false);
});
