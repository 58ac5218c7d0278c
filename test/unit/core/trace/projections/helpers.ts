// Shared helpers for projection tests: fixture loading and a tiny JSON snapshot (Node 20 has no built-in one).
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readTrace } from '../../../../../src/core/trace/reader.js';

export const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '../../../../fixtures/traces');

export function loadFixture(name: string) {
  return readTrace(readFileSync(join(FIXTURES, name), 'utf8'));
}

/** Compares `value` with test/fixtures/traces/snapshots/<name>.json; UPDATE_SNAPSHOTS=1 rewrites it. */
export function assertSnapshot(name: string, value: unknown): void {
  const file = join(FIXTURES, 'snapshots', `${name}.json`);
  const text = JSON.stringify(value, null, 1) + '\n';
  if (process.env.UPDATE_SNAPSHOTS === '1' || !existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    return;
  }
  assert.deepEqual(JSON.parse(text), JSON.parse(readFileSync(file, 'utf8')), `snapshot ${name} differs; if intended rerun with UPDATE_SNAPSHOTS=1`);
}
