// A warm sandbox serves episode after episode: after resetEpisode() the next episode must see nothing the last one
// did (globals, a monkey-patched robot API, builtins, imports, patched modules and classes, files, environment,
// interpreter settings, context variables, JavaScript globals), and what a reset cannot undo costs a fresh worker.
// Needs `npm run build` (the worker runs from dist/sandboxWorker.mjs; refused when older than its sources).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createPyodideSandbox } from '../../../../src/core/sandbox/index.js';
import type { ReusableSandbox } from '../../../../src/core/sandbox/sandbox.js';
import { FakeRobot, request } from './fakeRobot.js';
import { assertDistFresh } from '../../../helpers/dist.js';

assertDistFresh('dist/sandboxWorker.mjs');

// Everything an episode could leave behind, done the way generated code would do it.
const DIRTY_EPISODE = [
  `
import builtins, sys, os, json, random, logging, warnings, decimal, contextvars
secret_plan = [1, 2, 3]
def open_gripper():
    return 'patched open_gripper'
builtins.open_gripper = open_gripper
builtins.leaked_helper = lambda: 'leaked'
builtins.print = lambda *a, **k: None
json.dumps = lambda *a, **k: 'patched dumps'
json.JSONEncoder.default = lambda self, o: 'patched default'
import fractions, statistics
sys.path.append('/evil')
os.environ['WP_LEAK'] = '1'
os.makedirs('/tmp/leakdir/sub')
open('/tmp/leakdir/sub/f.txt', 'w').write('x')
open('/home/pyodide/notes.txt', 'w').write('remember me')
os.chdir('/tmp')
sys.setrecursionlimit(600)
warnings.simplefilter('error')
logging.basicConfig(level=logging.DEBUG)
logging.getLogger('leaky').setLevel(logging.ERROR)
decimal.getcontext().prec = 3
random.seed(1234)
sys.excepthook = lambda *a: None
__import__('__main__').leak = 1
import js
js.globalThis.wpLeak = 1
js.Object.prototype.wpPolluted = 1
`,
  // A second block of the same episode still sees its own changes (persistNamespace keeps globals).
  `import builtins
assert secret_plan == [1, 2, 3]
assert builtins.open_gripper() == 'patched open_gripper' and leaked_helper() == 'leaked'`,
];

const CHECK = `
import builtins, sys, os, json, random, logging, warnings, decimal, js
leaks = []
if 'secret_plan' in globals(): leaks.append('global secret_plan')
if open_gripper.__module__ != '_waypoint_api': leaks.append('open_gripper is not the robot API')
if hasattr(builtins, 'open_gripper') or hasattr(builtins, 'leaked_helper'): leaks.append('builtins additions')
if getattr(builtins.print, '__name__', '') != 'print': leaks.append('builtins.print')
if json.dumps({'a': 1}) != '{"a": 1}': leaks.append('json.dumps')
if getattr(json.JSONEncoder.default, '__name__', '') != 'default': leaks.append('JSONEncoder.default')
if 'fractions' in sys.modules or 'statistics' in sys.modules: leaks.append('imported modules')
if '/evil' in sys.path: leaks.append('sys.path')
if 'WP_LEAK' in os.environ: leaks.append('os.environ')
if os.path.exists('/tmp/leakdir') or os.path.exists('/home/pyodide/notes.txt'): leaks.append('files')
if os.getcwd() != '/home/pyodide': leaks.append('cwd ' + os.getcwd())
if sys.getrecursionlimit() == 600: leaks.append('recursion limit')
if any(f[0] == 'error' for f in warnings.filters): leaks.append('warnings filters')
if logging.root.handlers or logging.root.level == logging.DEBUG or 'leaky' in logging.Logger.manager.loggerDict: leaks.append('logging')
if decimal.getcontext().prec == 3: leaks.append('decimal context')
r = random.Random(1234); r.random()
if random.random() == r.random(): leaks.append('random stream')
if getattr(sys.excepthook, '__name__', '') == '<lambda>': leaks.append('sys.excepthook')
if hasattr(__import__('__main__'), 'leak'): leaks.append('__main__.leak')
if hasattr(js.globalThis, 'wpLeak'): leaks.append('JS global')
if hasattr(js.Object.new(), 'wpPolluted'): leaks.append('JS Object.prototype')
print('LEAKS:', leaks)
`;

describe('sandbox episode reset', () => {
  let sandbox: ReusableSandbox;
  before(async () => {
    sandbox = createPyodideSandbox();
    await sandbox.warmUp();
  });
  after(() => sandbox.close());

  it('a fresh sandbox passes the leak check (the check itself is sound)', async () => {
    const r = await sandbox.run(request(CHECK, new FakeRobot()));
    assert.equal(r.ok, true, JSON.stringify(r.error));
    assert.equal(r.stdout.trim(), 'LEAKS: []');
  });

  it('the next episode sees nothing the last one set, patched, imported or wrote; the same worker serves it', async () => {
    const robot = new FakeRobot();
    for (const code of DIRTY_EPISODE) {
      const r = await sandbox.run(request(code, robot, { persistNamespace: true }));
      assert.equal(r.ok, true, `${code.slice(0, 60)}: ${JSON.stringify(r.error)}`);
    }
    // Without the reset, the leak check does see the changes (so it would catch a reset that misses them).
    const dirty = await sandbox.run(request(CHECK.replace("print('LEAKS:', leaks)", "sys.stdout.write('LEAKS: ' + repr(leaks))"), robot, { persistNamespace: true }));
    assert.match(dirty.stdout, /global secret_plan|open_gripper|json\.dumps/);

    const report = await sandbox.resetEpisode();
    assert.equal(report.replaced, false, `${report.reason}\n${report.restored.join('\n')}`);
    const text = report.restored.join('\n');
    for (const what of ['builtins restored', 'sys.modules', 'module attributes restored', 'class attributes restored on JSONEncoder', 'sys.path restored', 'os.environ restored', 'removed (', 'working directory restored', 'recursion limit restored', 'warnings filters restored', 'logging configuration restored', 'globalThis.wpLeak removed', 'Object.prototype.wpPolluted removed']) {
      assert.ok(text.includes(what), `reset report lacks "${what}":\n${text}`);
    }

    const r = await sandbox.run(request(CHECK, new FakeRobot(), { persistNamespace: true }));
    assert.equal(r.ok, true, JSON.stringify(r.error));
    assert.equal(r.stdout.trim(), 'LEAKS: []');
    // The robot API works as before.
    const call = await sandbox.run(request('open_gripper()\nreport_state()', robot));
    assert.equal(call.ok, true);
    assert.equal(call.stdout, 'gripper open, holding nothing\n');
  });

  it('a clean episode needs nothing restored', async () => {
    await sandbox.resetEpisode();
    await sandbox.run(request('x = [i * i for i in range(10)]\nprint(sum(x))\nopen_gripper()', new FakeRobot()));
    const report = await sandbox.resetEpisode();
    assert.deepEqual(report, { restored: [], replaced: false });
  });

  it('what a reset cannot undo (an audit hook) gets a fresh worker, and the next episode runs on it', async () => {
    const r = await sandbox.run(request('import sys\nsys.addaudithook(lambda *a: None)', new FakeRobot()));
    assert.equal(r.ok, true, JSON.stringify(r.error));
    const report = await sandbox.resetEpisode();
    assert.equal(report.replaced, true);
    assert.match(report.reason ?? '', /audit hook/);
    const after = await sandbox.run(request(CHECK, new FakeRobot()));
    assert.equal(after.stdout.trim(), 'LEAKS: []');
  });
});
