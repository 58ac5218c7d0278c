// The layer under the worker's own hardening: the Node flags the worker starts with deny file writes, reads outside
// the allow-list, child processes, worker threads and code generation, even to code that holds the real modules.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultPyodideDir } from '../../../../src/core/sandbox/locate.js';
import { workerNodeArgs } from '../../../../src/core/sandbox/workerProcess.js';

const PROBE = `
import fs from 'node:fs';
import cp from 'node:child_process';
import { Worker } from 'node:worker_threads';
const [secret, target] = JSON.parse(process.argv[process.argv.length - 1]).probe;
const attempt = (f) => { try { f(); return 'allowed'; } catch (e) { return e.code ?? e.name; } };
const out = {
  writeFile: attempt(() => fs.writeFileSync(target, 'x')),
  readOutside: attempt(() => fs.readFileSync(secret, 'utf8')),
  spawn: attempt(() => { const r = cp.spawnSync('true'); if (r.error) throw r.error; }),
  worker: attempt(() => new Worker('1', { eval: true })),
  eval: attempt(() => eval('1 + 1')),
  functionCtor: attempt(() => new Function('return 1')()),
  binding: attempt(() => process.binding('fs')),
  env: Object.keys(process.env).filter((k) => k !== 'ELECTRON_RUN_AS_NODE'),
};
console.log(JSON.stringify(out));
`;

describe('worker permission model', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'waypoint-perm-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('denies writes, outside reads, processes, threads, eval and bindings', () => {
    const probe = join(dir, 'probe.mjs');
    const secret = join(dir, 'secret.txt');
    const target = join(dir, 'written.txt');
    writeFileSync(probe, PROBE);
    writeFileSync(secret, 'top secret');
    const args = workerNodeArgs({ workerPath: probe, pyodideDir: defaultPyodideDir(), jsHeapMiB: 128 });
    // Same flags as a real worker; the last argument (worker config) carries the probe's paths instead.
    args[args.length - 1] = JSON.stringify({ probe: [secret, target] });
    const r = spawnSync(process.execPath, args, { env: {}, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout) as Record<string, unknown>;
    assert.deepEqual(out, {
      writeFile: 'ERR_ACCESS_DENIED',
      readOutside: 'ERR_ACCESS_DENIED',
      spawn: 'ERR_ACCESS_DENIED',
      worker: 'ERR_ACCESS_DENIED',
      eval: 'EvalError',
      functionCtor: 'EvalError',
      binding: 'ERR_ACCESS_DENIED',
      env: [],
    });
    assert.equal(existsSync(target), false);
  });
});
