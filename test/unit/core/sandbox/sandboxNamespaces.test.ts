// One Pyodide sandbox serving several episodes at once, a namespace each (a sweep worker with episodes in flight):
// globals stay per namespace, shared interpreter state is put back after every block, and a block killed for its
// time limit fails only its own episode; the others run on the fresh process and are told their globals went.
// Needs `npm run build` (the worker runs from dist/sandboxWorker.mjs).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createPyodideSandbox } from '../../../../src/core/sandbox/index.js';
import type { ReusableSandbox } from '../../../../src/core/sandbox/sandbox.js';
import { FakeRobot, request } from './fakeRobot.js';
import { assertDistFresh } from '../../../helpers/dist.js';

assertDistFresh('dist/sandboxWorker.mjs');

describe('Pyodide sandbox namespaces', () => {
  let sandbox: ReusableSandbox;
  before(async () => {
    sandbox = createPyodideSandbox();
    await sandbox.warmUp();
  });
  after(() => sandbox.close());
  const persist = (code: string, namespace: string, over = {}) => sandbox.run(request(code, new FakeRobot(), { persistNamespace: true, namespace, ...over }));

  it('keeps each namespace its own globals, also when their blocks are queued together', async () => {
    const [a, b] = await Promise.all([persist('x = "a"', 'A'), persist('x = "b"', 'B')]);
    assert.equal(a.ok && b.ok, true);
    const [ra, rb, rc] = await Promise.all([persist('print(x)', 'A'), persist('print(x)', 'B'), persist('print(x)', 'C')]);
    assert.equal(ra.stdout, 'a\n');
    assert.equal(rb.stdout, 'b\n');
    assert.equal(rc.error?.type, 'NameError');
  });

  it('puts back shared state after every block: a patched module or builtin does not reach another namespace', async () => {
    const r = await persist('import json, builtins\njson.dumps = lambda *a, **k: "patched"\nbuiltins.len = lambda x: -1', 'A');
    assert.equal(r.ok, true);
    const other = await persist('import json\nprint(json.dumps([1]), len([1, 2]))', 'B');
    assert.equal(other.stdout, '[1] 2\n');
  });

  it('finds every changed binding: an attribute swapped for another (same count), an equal but new object, a class method renamed', async () => {
    // The per-block check compares all module and class dicts in one pass (episodeReset.ts _wp_unchanged_check);
    // a check that compared only sizes, or values by equality, would miss each of these.
    const before = await persist('import string\nprint(id(string.digits))', 'J');
    const r = await persist(
      [
        'import json, string',
        'v = json.loads',
        'del json.loads',
        'json.loads2 = v',
        "string.digits = ''.join(list(string.digits))",
        'f = string.Template.substitute',
        'del string.Template.substitute',
        'string.Template.substitute2 = f',
      ].join('\n'),
      'K',
    );
    assert.equal(r.ok, true, JSON.stringify(r.error));
    const after = await persist("import json, string\nprint(id(string.digits))\nprint(json.loads('[1]'), string.Template('$a').substitute(a=2), hasattr(json, 'loads2'), hasattr(string.Template, 'substitute2'))", 'J');
    assert.equal(after.stdout, `${before.stdout}[1] 2 False False\n`);
  });

  it('a binding the restore cannot put back (an enum member set past its metaclass) costs a fresh process, said to the others', async () => {
    await persist('w = 1', 'L');
    const r = await persist('import re\ntype.__setattr__(re.RegexFlag, "IGNORECASE", 5)', 'M');
    assert.equal(r.ok, true, JSON.stringify(r.error));
    const other = await persist('print(w)', 'L');
    assert.equal(other.error?.type, 'NameError');
    assert.match(other.error?.message ?? '', /a block left what a reset cannot undo: class RegexFlag/);
  });

  it('drops a namespace on resetNamespace(id) and leaves the others', async () => {
    await Promise.all([persist('y = 1', 'D'), persist('y = 2', 'E')]);
    await sandbox.resetNamespace('D');
    assert.equal((await persist('print(y)', 'D')).error?.type, 'NameError');
    assert.equal((await persist('print(y)', 'E')).stdout, '2\n');
  });

  it('a time limit in one namespace fails only that block; the other, queued behind it, runs and is told its globals went', async () => {
    await persist('z = 5', 'G');
    const [slow, queued] = await Promise.all([persist('while True:\n    pass', 'F', { limits: { timeoutSecs: 1, memoryMiB: 512 } }), persist('print(z)', 'G')]);
    assert.equal(slow.exitCode, 124);
    assert.equal(queued.error?.type, 'NameError');
    assert.match(queued.error?.message ?? '', /restarted \(another episode's block hit the time limit of 1 s\), so this episode's globals from earlier blocks are gone/);
    // Said once: the next block of that namespace is an ordinary one.
    const next = await persist('z = 6\nprint(z)', 'G');
    assert.equal(next.stdout, '6\n');
  });
});
