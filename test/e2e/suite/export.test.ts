// Export Run… in the real extension host: the fixture trace as MCAP (read back with @mcap/core), MCAP with ROS 2
// transforms, an Inspect log and a trace copy, through the command the Runs view's context menu runs (the
// format and target given as arguments instead of the two pickers; the UI scenarios click through those).
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { McapIndexedReader } from '@mcap/core';
import { decompress as lz4Decompress } from 'lz4js';
import * as vscode from 'vscode';
import { activeExtension, e2eEnv, within } from './helpers.js';

async function topics(file: string): Promise<Map<string, { count: number; schema: string }>> {
  const bytes = readFileSync(file);
  const reader = await McapIndexedReader.Initialize({ decompressHandlers: { lz4: (buf: Uint8Array, size: bigint) => lz4Decompress(buf, Number(size)) }, readable: { size: async () => BigInt(bytes.byteLength), read: async (o: bigint, l: bigint) => bytes.subarray(Number(o), Number(o + l)) } });
  const out = new Map<string, { count: number; schema: string }>();
  for (const [id, n] of reader.statistics?.channelMessageCounts ?? []) {
    const c = reader.channelsById.get(id)!;
    out.set(c.topic, { count: Number(n), schema: reader.schemasById.get(c.schemaId)?.name ?? '' });
  }
  return out;
}

describe('export a run', function () {
  before(async function () {
    await activeExtension();
  });

  it('waypoint.exportRun writes MCAP (JSON and ROS 2 transforms), an Inspect log and a trace copy', async function () {
    this.timeout(60_000);
    const env = e2eEnv();
    const out = (name: string) => join(env.workspace, name);
    const run = (format: string, target: string) => within(30_000, `waypoint.exportRun ${format} did not return`, vscode.commands.executeCommand<string | undefined>('waypoint.exportRun', env.fixtureTrace, { format, target }));
    assert.equal(await run('mcap', out('fixture.mcap')), out('fixture.mcap'));
    const t = await topics(out('fixture.mcap'));
    assert.equal(t.get('/tf')?.schema, 'foxglove.FrameTransforms');
    assert.equal(t.get('/scene')?.count, 1);
    assert.ok((t.get('/role/coder')?.count ?? 0) > 0, 'the Coder\'s calls are on their own channel');
    assert.equal(await run('mcap-ros2', out('fixture-ros2.mcap')), out('fixture-ros2.mcap'));
    assert.equal((await topics(out('fixture-ros2.mcap'))).get('/tf')?.schema, 'tf2_msgs/msg/TFMessage');
    assert.equal(await run('inspect', out('fixture.json')), out('fixture.json'));
    const log = JSON.parse(readFileSync(out('fixture.json'), 'utf8')) as { version: number; samples: { events: { event: string }[] }[] };
    assert.equal(log.version, 2);
    assert.ok(log.samples[0]!.events.some((e) => e.event === 'model'));
    assert.equal(await run('trace', out('fixture.trace.jsonl')), out('fixture.trace.jsonl'));
    assert.equal(readFileSync(out('fixture.trace.jsonl'), 'utf8'), readFileSync(env.fixtureTrace, 'utf8'));
    console.log(`export: ${[...t].map(([k, v]) => `${k} ${v.count}`).join(', ')}`);
    assert.ok(existsSync(out('fixture.mcap')));
  });
});
