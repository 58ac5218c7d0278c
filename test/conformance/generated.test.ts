// STYLE rule 12: the Python constants and the JSON Schema are generated from src/protocol/simulator.ts; this test
// regenerates them in memory and fails when the files on disk differ.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { it } from 'node:test';
import { GENERATED } from '../../scripts/gen-protocol.js';

for (const g of GENERATED) {
  it(`${g.path} is up to date with src/protocol/simulator.ts`, () => {
    const onDisk = readFileSync(g.path, 'utf8');
    assert.ok(onDisk.startsWith('# DO NOT EDIT') || onDisk.includes('"$comment": "DO NOT EDIT'), `${g.path} lacks its DO NOT EDIT header`);
    if (onDisk !== g.render()) assert.fail(`${g.path} is stale: run the generator (node --import tsx scripts/gen-protocol.ts)`);
  });
}
