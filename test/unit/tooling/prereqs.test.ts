// A test that needs a program the machine lacks (Chromium, python3, numpy) is skipped with what to install on a
// developer's machine, and fails the run in CI: the helper every such test uses (test/helpers/prereqs.ts), run in a
// child test process with python3 taken off PATH.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, test } from 'node:test';
import { prereqsRequired, skipWithout } from '../../helpers/prereqs.js';

test('CI or WAYPOINT_REQUIRE_PREREQS=1 requires the prerequisites; WAYPOINT_REQUIRE_PREREQS=0 overrides CI', () => {
  assert.equal(prereqsRequired({}), false);
  assert.equal(prereqsRequired({ CI: 'true' }), true);
  assert.equal(prereqsRequired({ CI: '1' }), true);
  assert.equal(prereqsRequired({ CI: 'false' }), false);
  assert.equal(prereqsRequired({ CI: '' }), false);
  assert.equal(prereqsRequired({ WAYPOINT_REQUIRE_PREREQS: '1' }), true);
  assert.equal(prereqsRequired({ CI: 'true', WAYPOINT_REQUIRE_PREREQS: '0' }), false);
});

test('a prerequisite that is there never skips', () => {
  assert.equal(skipWithout('python3', { WAYPOINT_REQUIRE_PREREQS: '1' }, () => undefined), false);
});

const dir = mkdtempSync(join(tmpdir(), 'waypoint-prereqs-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('python3 missing: skipped with the reason locally; in CI a failing "prerequisite" test and the run exits 1', () => {
  const file = join(dir, 'needsPython.test.ts');
  writeFileSync(file, [
    `import { test } from 'node:test';`,
    `import { skipWithout } from ${JSON.stringify(pathToFileURL(join(import.meta.dirname, '../../helpers/prereqs.ts')).href)};`,
    `test('runs python', { skip: skipWithout('python3') }, () => {});`,
    `test('runs python again', { skip: skipWithout('python3') }, () => {});`,
  ].join('\n'));
  // Without NODE_TEST_CONTEXT (it makes the nested runner report to this one), CI and python3 on PATH.
  const { NODE_TEST_CONTEXT: _, CI: __, WAYPOINT_REQUIRE_PREREQS: ___, ...env } = process.env;
  const run = (extra: Record<string, string>) =>
    spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=tap', file], { cwd: join(import.meta.dirname, '../../..'), encoding: 'utf8', env: { ...env, PATH: dir, ...extra } });

  const local = run({});
  assert.equal(local.status, 0, local.stdout + local.stderr);
  assert.match(local.stdout, /ok 1 - runs python # SKIP python3 not found on PATH \(apt-get install -y python3\); skipped here, fails in CI/);
  assert.match(local.stdout, /^# skipped 2$/m);

  for (const extra of [{ CI: 'true' }, { WAYPOINT_REQUIRE_PREREQS: '1' }] as Record<string, string>[]) {
    const ci = run(extra);
    assert.equal(ci.status, 1, JSON.stringify(extra));
    assert.match(ci.stdout, /not ok \d+ - prerequisite: python3/);
    assert.match(ci.stdout, /python3 not found on PATH \(apt-get install -y python3\): required here/);
    assert.match(ci.stdout, /^# fail 1$/m, 'one failure for the missing program, however many tests need it');
    assert.match(ci.stdout, /runs python # SKIP python3 not found on PATH \(apt-get install -y python3\): see the failing "prerequisite: python3" test/);
  }
});
