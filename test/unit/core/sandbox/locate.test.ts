import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { defaultPyodideDir, findPackageRoot, permissionFlag } from '../../../../src/core/sandbox/locate.js';

describe('sandbox locate', () => {
  it('finds the waypoint package root and the pyodide package', () => {
    const root = findPackageRoot();
    assert.ok(existsSync(join(root, 'package.json')));
    assert.ok(existsSync(join(defaultPyodideDir(root), 'pyodide.asm.wasm')));
  });

  it('fails with the starting directory when there is no waypoint package above', () => {
    assert.throws(() => findPackageRoot('/'), /cannot find the waypoint package root above \//);
  });

  it('spells the permission flag for the running Node version', () => {
    assert.equal(permissionFlag('20.20.2'), '--experimental-permission');
    assert.equal(permissionFlag('22.12.0'), '--experimental-permission');
    assert.equal(permissionFlag('22.13.0'), '--permission');
    assert.equal(permissionFlag('23.5.0'), '--permission');
    assert.equal(permissionFlag('24.0.0'), '--permission');
  });
});
