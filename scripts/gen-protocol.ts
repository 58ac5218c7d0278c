// Generates the mirrors of src/protocol/simulator.ts (STYLE rule 12: one schema, generated mirrors):
//   bridges/python/waypoint_sim/_protocol.py   method/notification names, error codes, top-level param types
//   docs/simulator-protocol.schema.json        JSON Schema of every method's params and result
// Run: node --import tsx scripts/gen-protocol.ts   (test/conformance/generated.test.ts fails when they are stale)
import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import * as z from 'zod';
import {
  ApiParamType,
  LogLevel,
  METHODS_NEEDING_EPISODE,
  SIM_METHODS,
  SIM_METHOD_NAMES,
  SIM_NOTIFICATIONS,
  SIM_NOTIFICATION_NAMES,
  SIM_PROTOCOL_VERSION,
  SimErrorCode,
} from '../src/protocol/simulator.js';

export const PYTHON_PROTOCOL_PATH = 'bridges/python/waypoint_sim/_protocol.py';
export const JSON_SCHEMA_PATH = 'docs/simulator-protocol.schema.json';
const HEADER = 'DO NOT EDIT: generated from src/protocol/simulator.ts by scripts/gen-protocol.ts';
const RUN = 'node --import tsx scripts/gen-protocol.ts';

type JsonSchema = { type?: string | string[]; properties?: Record<string, JsonSchema>; required?: string[] };

function paramsSchema(schema: z.ZodType): JsonSchema {
  const inner = schema instanceof z.ZodOptional ? (schema.unwrap() as z.ZodType) : schema;
  return z.toJSONSchema(inner, { io: 'input' }) as JsonSchema;
}

const py = (v: string) => JSON.stringify(v);
const constName = (s: string) => s.toUpperCase().replace(/[^A-Z0-9]+/g, '_');

export function renderPythonProtocol(): string {
  const L: string[] = [];
  L.push(`# ${HEADER}.`, `# Change the protocol there and run \`${RUN}\`.`, '"""Names, codes and parameter types of the Waypoint simulator protocol (JSON-RPC 2.0)."""', '');
  L.push(`PROTOCOL_VERSION = ${SIM_PROTOCOL_VERSION}`, '', '# Requests (client -> server)');
  for (const m of SIM_METHOD_NAMES) L.push(`METHOD_${constName(m)} = ${py(m)}`);
  L.push(`METHODS = (${SIM_METHOD_NAMES.map(py).join(', ')})`);
  L.push(`METHODS_NEEDING_EPISODE = (${METHODS_NEEDING_EPISODE.map(py).join(', ')})`, '', '# Notifications (server -> client)');
  for (const n of SIM_NOTIFICATION_NAMES) L.push(`NOTIFICATION_${constName(n)} = ${py(n)}`);
  L.push(`LOG_LEVELS = (${LogLevel.options.map(py).join(', ')})`, '', '# Error codes');
  for (const [k, v] of Object.entries(SimErrorCode)) L.push(`${k} = ${v}`);
  L.push('', `SNAPSHOT_MODES = ("none", "id", "blob")`, `API_PARAM_TYPES = (${ApiParamType.options.map(py).join(', ')})`, '');
  L.push('# Top-level params of each method: name -> (JSON type, required). "any" accepts every JSON value.');
  L.push('PARAMS = {');
  for (const m of SIM_METHOD_NAMES) {
    const s = paramsSchema(SIM_METHODS[m].params);
    const req = new Set(s.required ?? []);
    const fields = Object.entries(s.properties ?? {}).map(([k, v]) => `${py(k)}: (${py(typeof v.type === 'string' ? v.type : 'any')}, ${req.has(k) ? 'True' : 'False'})`);
    L.push(`    ${py(m)}: {${fields.join(', ')}},`);
  }
  L.push('}', '');
  return L.join('\n');
}

export function renderJsonSchema(): string {
  const methods: Record<string, unknown> = {};
  for (const m of SIM_METHOD_NAMES) {
    const { $schema: _a, ...params } = paramsSchema(SIM_METHODS[m].params) as Record<string, unknown>;
    const { $schema: _b, ...result } = z.toJSONSchema(SIM_METHODS[m].result as z.ZodType) as Record<string, unknown>;
    methods[m] = { params, result };
  }
  const notifications: Record<string, unknown> = {};
  for (const n of SIM_NOTIFICATION_NAMES) {
    const { $schema: _c, ...params } = z.toJSONSchema(SIM_NOTIFICATIONS[n] as z.ZodType) as Record<string, unknown>;
    notifications[n] = { params };
  }
  const doc = {
    $comment: `${HEADER}. Run \`${RUN}\`.`,
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'Waypoint simulator protocol',
    protocolVersion: SIM_PROTOCOL_VERSION,
    errorCodes: SimErrorCode,
    methods,
    notifications,
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

export const GENERATED: { path: string; render: () => string }[] = [
  { path: PYTHON_PROTOCOL_PATH, render: renderPythonProtocol },
  { path: JSON_SCHEMA_PATH, render: renderJsonSchema },
];

// Written only when run as a script (tests import the render functions). No import.meta: the package is CommonJS to tsc.
if (process.argv[1] && /gen-protocol\.ts$/.test(process.argv[1])) {
  const root = join(dirname(resolve(process.argv[1])), '..');
  for (const g of GENERATED) {
    writeFileSync(join(root, g.path), g.render());
    console.error(`wrote ${g.path}`);
  }
}
