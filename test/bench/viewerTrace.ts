// Writes the viewer benchmark's trace: the long MALMM fixture run with about N trajectory samples, through the real
// trace writer (compact encoding, schema v2). A separate process, because building a million sample objects needs
// a larger heap than the benchmark itself. Run: node --max-old-space-size=8192 --import tsx viewerTrace.ts N out
import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { nodeClock, nodeIO } from '../../src/core/node/nodeHost.js';
import { JsonlTraceWriter } from '../../src/core/trace/writer.js';
import { TRACE_SCHEMA_VERSION, type PendingEvent } from '../../src/protocol/trace.js';
import { buildBigTrace } from '../fixtures/traces/malmmTrace.js';

const [n, out] = [Number(process.argv[2]), process.argv[3]];
if (!(n > 0) || !out) throw new Error('usage: viewerTrace.ts <samples> <out.jsonl>');
mkdirSync(dirname(out), { recursive: true });
const tmp = `${out}.partial`;
rmSync(tmp, { force: true });
const w = new JsonlTraceWriter(nodeIO, tmp, nodeClock, { summaryPath: null });
for (const e of buildBigTrace(n)) {
  const { seq: _s, tMs: _t, ...rest } = e;
  await w.write((rest.type === 'episode_start' ? { ...rest, schemaVersion: TRACE_SCHEMA_VERSION } : rest) as PendingEvent);
}
renameSync(tmp, out);
