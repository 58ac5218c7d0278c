// `waypoint serve-model`: prints the labelled URL, serves /v1/models, binds loopback by default.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serveModel } from '../../../src/cli/serveModel.js';

test('serveModel prints a labelled loopback URL that serves /v1/models, and closes', async () => {
  const lines: string[] = [];
  const s = await serveModel({ port: 0 }, (l) => lines.push(l));
  try {
    assert.match(s.url, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    assert.equal(lines[0], `reference model (scripted, not an LLM) listening on ${s.url}`);
    assert.ok(!lines.some((l) => l.startsWith('warning')), 'no exposure warning on loopback');
    const res = await fetch(`${s.url}/models`);
    const body = (await res.json()) as { data: { id: string; owned_by: string }[] };
    assert.deepEqual(body.data.map((d) => d.id), ['reference', 'reference-flawed', 'reference-embedding']);
  } finally {
    await s.close();
  }
  await assert.rejects(fetch(`${s.url}/models`), 'closed server refuses connections');
});

test('serveModel rejects an invalid port', async () => {
  await assert.rejects(serveModel({ port: 70000 }, () => {}), /--port must be an integer in 0\.\.65535, got 70000/);
});
