// The mutation run's list (scripts/mutants.mjs) stays applicable as the code moves: every search text occurs exactly
// once in its file, the replacement changes it, the file is under the folder it scores, and its test files exist.
// Each of issue 26's survivors is on the list.
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { listProblems, MUTANTS } from '../../../scripts/mutants.mjs';
import { PACKAGE_ROOT } from '../../helpers/dist.js';

test('every mutant applies to the current source: one occurrence of its search text, existing test files', () => {
  assert.deepEqual(listProblems(MUTANTS, PACKAGE_ROOT), []);
});

test("issue 26's seventeen survivors are all on the list, and the four core folders have mutants of their own", () => {
  assert.equal(MUTANTS.filter((m) => m.issue === 26).length, 17);
  for (const folder of ['src/core/metrics', 'src/core/sweep', 'src/core/debug']) assert.ok(MUTANTS.filter((m) => m.folder === folder).length >= 5, folder);
  for (const arch of ['malmm', 'roco', 'actctx', 'llamar', 'trajgen']) assert.ok(MUTANTS.some((m) => m.folder === `src/architectures/${arch}`), arch);
});

test('the check names what rots: a text found twice or not at all, a missing file, a file outside its folder', () => {
  const root = mkdtempSync(join(tmpdir(), 'waypoint-mutants-'));
  try {
    mkdirSync(join(root, 'src', 'a'), { recursive: true });
    mkdirSync(join(root, 'test'), { recursive: true });
    writeFileSync(join(root, 'src', 'a', 'x.ts'), 'if (n >= 5) stop();\nif (n >= 5) stop();\n');
    writeFileSync(join(root, 'test', 'x.test.ts'), '');
    const base = { folder: 'src/a', file: 'src/a/x.ts', replace: 'if (n > 5) stop();', tests: ['test/x.test.ts'], what: '' };
    const problems = listProblems(
      [
        { ...base, id: 'twice', search: 'if (n >= 5) stop();' },
        { ...base, id: 'gone', search: 'if (n >= 6) stop();' },
        { ...base, id: 'nofile', file: 'src/a/y.ts', search: 'x' },
        { ...base, id: 'elsewhere', folder: 'src/b', search: 'stop();\nif' },
        { ...base, id: 'notest', search: 'stop();\nif', tests: ['test/none.test.ts'] },
      ],
      root,
    );
    assert.deepEqual(problems, [
      'twice: the search text occurs 2 times in src/a/x.ts (must be exactly once)',
      'gone: the search text occurs 0 times in src/a/x.ts (must be exactly once)',
      'nofile: src/a/y.ts does not exist',
      'elsewhere: src/a/x.ts is not under its folder src/b',
      'notest: test file test/none.test.ts does not exist',
    ]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
