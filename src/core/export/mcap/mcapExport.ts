// A run as an MCAP file for Foxglove, Lichtblick and other MCAP tools, built only from trace events (so any trace
// Waypoint can read exports, a colleague's included). Channels (JSON-encoded, with JSON Schemas; Foxglove's own
// schemas where one fits):
//   /tf               foxglove.FrameTransforms  every body's pose per trajectory sample (static bodies once); a
//                     household's agents per step (householdAgents.ts)
//                     or, with ros2Transforms, tf2_msgs/msg/TFMessage in CDR (+ /tf_static) for Rerun
//   /scene            foxglove.SceneUpdate      the scene geometry, one entity per body (and household agent),
//                     locked to its frame
//   /robot/state      waypoint.RobotState       end effector x/y/z/yaw, gripper width, held object (plottable)
//   /transcript       foxglove.Log              who said what: the shared conversation, or, for architectures
//                     without one (LLaMAR's separate roles), each role's prompt and answer; every agent's action
//                     with its result
//   /role/<role>      foxglove.Log              each role call's answer (or its error), one channel per role
//   /code             foxglove.Log              each executed code block and its outcome
//   /api_calls        waypoint.ApiCall          each robot API call with its arguments, result and metrics
//   /actions          waypoint.ApiCall          each agent's part of a structured action (RoCo, actctx, ...)
//   /checks           waypoint.Check            check verdicts (collision, success, ...)
//   /metrics/motion   waypoint.MotionMetrics    per action: M_I, M_E, M_T, path length, jerk, clearance (plottable)
//   /errors           foxglove.Log              engine errors
//   /engine           foxglove.Log              simulator snapshots and restores (the sim clock may jump back)
// Chunks are LZ4-compressed (MCAP's 'lz4', the LZ4 frame format; every MCAP reader decodes it): JSON transforms
// shrink several times. Time: simulated time from the episode's start (simClock.ts; a household's step clock). A
// metadata record 'waypoint.run' says so and carries the run's header and result. Event types this file does not
// know are skipped (counted in `skipped`).
import { McapWriter, type IWritable } from '@mcap/core';
import { compress as lz4 } from 'lz4js';
import { FrameTransforms, Log, SceneUpdate } from '@foxglove/schemas/jsonschema.js';
import { HOUSEHOLD_STEP_SECS } from '../../../protocol/household.js';
import type { ChatMessage, EventOf, TraceEvent } from '../../../protocol/trace.js';
import { originNs, stamp, timeline, toNs } from '../simClock.js';
import { agentEntity, agentPosesOfStep, isHouseholdScene } from './householdAgents.js';
import { encodeTfMessage, TF_SCHEMA_NAME, TF_SCHEMA_TEXT, type TfTransform } from './ros2Tf.js';
import { sceneEntities } from './sceneEntities.js';
import { WAYPOINT_SCHEMAS } from './waypointSchemas.js';

export interface McapExportOptions {
  /** Transforms as ROS 2 CDR tf2_msgs/msg/TFMessage on /tf and /tf_static (Rerun draws these), not JSON. */
  ros2Transforms?: boolean;
}

export interface McapExportResult {
  bytes: Uint8Array;
  /** Messages written per topic. */
  counts: Record<string, number>;
  /** Geoms that could not be drawn (meshes: their data is not in the trace). */
  skippedGeoms: number;
  /** Trace events of types this exporter does not know (newer traces), left out. */
  skippedEvents: number;
  startNs: bigint;
  endNs: bigint;
}

const LEVEL = { INFO: 2, WARNING: 3, ERROR: 4 } as const;

/** In-memory IWritable. */
class MemoryWritable implements IWritable {
  private parts: Uint8Array[] = [];
  private size = 0n;
  async write(buffer: Uint8Array): Promise<void> {
    this.parts.push(buffer.slice());
    this.size += BigInt(buffer.byteLength);
  }
  position(): bigint {
    return this.size;
  }
  bytes(): Uint8Array {
    const out = new Uint8Array(Number(this.size));
    let o = 0;
    for (const p of this.parts) {
      out.set(p, o);
      o += p.byteLength;
    }
    return out;
  }
}

interface Pending {
  topic: string;
  logTime: bigint;
  order: number;
  data: Uint8Array;
}

/** Frame ids: body labels made safe for ROS (letters, digits, underscores), unique. */
function frameNamer(): (body: string) => string {
  const map = new Map<string, string>();
  const used = new Set<string>(['world']);
  return (body) => {
    if (body === 'world') return 'world';
    let id = map.get(body);
    if (id) return id;
    const base = body.replace(/[^A-Za-z0-9_]+/g, '_').replace(/^_+|_+$/g, '') || 'body';
    id = base;
    for (let i = 2; used.has(id); i++) id = `${base}_${i}`;
    used.add(id);
    map.set(body, id);
    return id;
  };
}

const argList = (xs: readonly unknown[]) => xs.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))).join(', ');

/** What a role was asked: its last user message (the system prompt is the prompt file's, the same every call). */
function promptOf(messages: readonly ChatMessage[]): string {
  return [...messages].reverse().find((m) => m.role === 'user')?.content ?? '';
}

// api_call events repeat what code_execution.apiCalls holds (written before the call, for the debugger).
const KNOWN = new Set(['episode_start', 'scene', 'role_call', 'model_response', 'parsed_output', 'chat_message', 'code_execution', 'observation', 'trajectory', 'check', 'api_call', 'action', 'action_result', 'snapshot', 'restore', 'error', 'episode_end']);

export async function exportMcap(events: readonly TraceEvent[], options: McapExportOptions = {}): Promise<McapExportResult> {
  const origin = originNs(events);
  const frame = frameNamer();
  const enc = new TextEncoder();
  const pending: Pending[] = [];
  const counts: Record<string, number> = {};
  let order = 0;
  const put = (topic: string, logTime: bigint, data: Uint8Array) => {
    pending.push({ topic, logTime, order: order++, data });
    counts[topic] = (counts[topic] ?? 0) + 1;
  };
  const json = (topic: string, logTime: bigint, msg: unknown) => put(topic, logTime, enc.encode(JSON.stringify(msg)));
  const log = (topic: string, t: bigint, level: number, name: string, message: string) => json(topic, t, { timestamp: stamp(t), level, message, name, file: '', line: 0 });

  const scene = events.find((e): e is EventOf<'scene'> => e.type === 'scene');
  const start = events.find((e): e is EventOf<'episode_start'> => e.type === 'episode_start');
  const end = [...events].reverse().find((e): e is EventOf<'episode_end'> => e.type === 'episode_end');
  const bodies = scene?.bodies ?? [];
  const samples = events.flatMap((e) => (e.type === 'trajectory' ? e.samples : []));
  const posed = samples.filter((s) => s.bodies && s.bodies.length === 7 * bodies.length && bodies.length > 0);
  // Bodies that never move (table, arm bases, fixtures) are sent once, at the start.
  const moving = bodies.map((_, b) => posed.some((s) => { for (let j = 0; j < 7; j++) if (Math.abs(s.bodies![7 * b + j]! - posed[0]!.bodies![7 * b + j]!) > 1e-9) return true; return false; }));
  // A symbolic household: no samples; the agents are posed from its whole-scene observations, step by step.
  const householdScenes = samples.length === 0 ? events.filter((e): e is EventOf<'observation'> => e.type === 'observation' && isHouseholdScene(e)) : [];
  // Architectures that keep no shared conversation (LLaMAR's roles are called apart) get their role calls on /transcript.
  const conversation = events.some((e) => e.type === 'chat_message');
  const lastAgentPose = new Map<string, string>();
  const tfTopic = '/tf';
  const tfStaticTopic = options.ros2Transforms ? '/tf_static' : '/tf';
  const sendTransforms = (topic: string, t: bigint, list: TfTransform[]) => {
    if (list.length === 0) return;
    if (options.ros2Transforms) put(topic, t, encodeTfMessage(list));
    else {
      json(topic, t, {
        transforms: list.map((x) => ({
          timestamp: x.stamp, parent_frame_id: x.parent, child_frame_id: x.child,
          translation: { x: x.pose[0], y: x.pose[1], z: x.pose[2] }, rotation: { x: x.pose[4], y: x.pose[5], z: x.pose[6], w: x.pose[3] },
        })),
      });
    }
  };

  const actions = new Map<string, EventOf<'action'>>();
  const motion = (turn: number, m: NonNullable<EventOf<'code_execution'>['apiCalls'][number]['metrics']>, agent?: string) => {
    const done = toNs(origin, m.startSecs + m.durationSecs);
    json('/metrics/motion', done, {
      timestamp: stamp(done), turn, action: agent ? `${agent}: ${m.action}` : m.action, m_i: m.mI, m_e: m.mE, m_t: m.mT, duration_s: m.durationSecs, path_length_m: m.pathLengthM,
      peak_jerk_mps3: m.peakJerkMps3, min_clearance_m: m.minClearanceM, closest_pair: m.closestPair ? m.closestPair.join(' <-> ') : '', collisions: m.collisionCount, max_held_tilt_rad: m.maxHeldTiltRad ?? 0,
    });
  };
  let skippedGeoms = 0;
  let skippedEvents = 0;
  let staticSent = false;
  const timed = timeline(events);
  for (const { event: e, simSecs } of timed) {
    const t = toNs(origin, simSecs);
    if (!KNOWN.has(e.type)) {
      skippedEvents++;
      continue;
    }
    switch (e.type) {
      case 'scene': {
        const r = sceneEntities(e, frame, stamp(t));
        skippedGeoms += r.skipped;
        const first = householdScenes[0];
        if (first) {
          // The household's walls and furniture are drawn in world coordinates and never move.
          sendTransforms(tfStaticTopic, t, e.bodies.flatMap((b) => (b === 'world' ? [] : [{ parent: 'world', child: frame(b), stamp: stamp(t), pose: [0, 0, 0, 1, 0, 0, 0] }])));
          (first.state.robots ?? []).forEach((a, i) => r.entities.push(agentEntity(a.name, i, a.pos[2] > 0 ? a.pos[2] : 1, frame(a.name), stamp(t))));
        }
        json('/scene', t, { deletions: [], entities: r.entities });
        break;
      }
      case 'observation': {
        if (householdScenes.length === 0 || !isHouseholdScene(e)) break;
        const byTime = new Map<number, TfTransform[]>();
        for (const p of agentPosesOfStep(e, simSecs, HOUSEHOLD_STEP_SECS)) {
          // The same state can be observed twice at one instant (the reset, then the loop's first look): sent once.
          const key = `${p.tSecs} ${p.pose.join(' ')}`;
          if (lastAgentPose.get(p.agent) === key) continue;
          lastAgentPose.set(p.agent, key);
          const list = byTime.get(p.tSecs) ?? [];
          list.push({ parent: 'world', child: frame(p.agent), stamp: stamp(toNs(origin, p.tSecs)), pose: p.pose });
          byTime.set(p.tSecs, list);
        }
        for (const [tSecs, list] of byTime) sendTransforms(tfTopic, toNs(origin, tSecs), list);
        break;
      }
      case 'trajectory':
        for (const s of e.samples) {
          const ts = toNs(origin, s.tSecs);
          const st = stamp(ts);
          if (s.bodies && s.bodies.length === 7 * bodies.length && bodies.length > 0) {
            if (!staticSent) {
              staticSent = true;
              sendTransforms(tfStaticTopic, ts, bodies.flatMap((b, i) => (b === 'world' || moving[i] ? [] : [{ parent: 'world', child: frame(b), stamp: st, pose: s.bodies!.slice(7 * i, 7 * i + 7) }])));
            }
            sendTransforms(tfTopic, ts, bodies.flatMap((b, i) => (b === 'world' || !moving[i] ? [] : [{ parent: 'world', child: frame(b), stamp: st, pose: s.bodies!.slice(7 * i, 7 * i + 7) }])));
          } else {
            // No body poses in this trace (an external simulator, an older trace): the end effector alone.
            const [x, y, z, yaw] = s.ee;
            sendTransforms(tfTopic, ts, [{ parent: 'world', child: 'end_effector', stamp: st, pose: [x, y, z, Math.cos(yaw / 2), 0, 0, Math.sin(yaw / 2)] }]);
          }
          json('/robot/state', ts, { timestamp: st, ee: { x: s.ee[0], y: s.ee[1], z: s.ee[2], yaw_rad: s.ee[3] }, gripper_width_m: s.gripperWidth, grasped: s.grasped ?? '', contacts: (s.contacts ?? []).map(([a, b]) => `${a} <-> ${b}`) });
        }
        break;
      case 'chat_message':
        log('/transcript', t, LEVEL.INFO, e.speaker, e.content);
        break;
      case 'role_call':
        if (!conversation) log('/transcript', t, LEVEL.INFO, e.agent ?? e.role, `prompt (turn ${e.turn}):\n${promptOf(e.messages)}`);
        break;
      case 'model_response': {
        const text = e.ok ? (e.text ?? '') : `${e.error?.kind ?? 'error'}: ${e.error?.message ?? 'model call failed'}`;
        log(`/role/${e.role.replace(/[^A-Za-z0-9_]+/g, '_')}`, t, e.ok ? LEVEL.INFO : LEVEL.ERROR, e.role, text);
        if (!conversation) log('/transcript', t, e.ok ? LEVEL.INFO : LEVEL.ERROR, e.agent ?? e.role, `answer (turn ${e.turn}):\n${text}`);
        break;
      }
      case 'code_execution': {
        log('/code', t, e.ok ? LEVEL.INFO : LEVEL.ERROR, e.role, `${e.code}\n--- exit ${e.exitCode}${e.error ? `: ${e.error.type}: ${e.error.message}` : ''}${e.stdout ? `\n${e.stdout}` : ''}`);
        for (const c of e.apiCalls) {
          const at = c.metrics ? toNs(origin, c.metrics.startSecs) : t;
          json('/api_calls', at, { timestamp: stamp(at), turn: e.turn, fn: c.fn, args_json: JSON.stringify(c.args), ok: c.ok, error: c.error ?? '', value_json: c.value === undefined ? '' : JSON.stringify(c.value) });
          if (c.metrics) motion(e.turn, c.metrics);
        }
        break;
      }
      case 'check':
        json('/checks', t, { timestamp: stamp(t), turn: e.turn, name: e.name, ok: e.ok, message: e.message });
        break;
      case 'action':
        actions.set(e.actionId, e);
        break;
      case 'action_result': {
        const asked = actions.get(e.actionId)?.actions ?? [];
        e.results.forEach((res, i) => {
          const args = asked.find((a, j) => a.agent === res.agent && (j === i || a.name === res.name))?.args ?? [];
          const at = res.metrics ? toNs(origin, res.metrics.startSecs) : t;
          json('/actions', at, { timestamp: stamp(at), turn: e.turn, fn: `${res.agent}: ${res.name}`, args_json: JSON.stringify(args), ok: res.ok, error: res.error ?? '', value_json: res.value === undefined ? '' : JSON.stringify(res.value) });
          const said = res.ok ? res.output : (res.error ?? res.output);
          log('/transcript', at, res.ok ? LEVEL.INFO : LEVEL.WARNING, res.agent, `${res.name}(${argList(args)}) ${res.ok ? '✓' : '✗'}${said ? ` ${said}` : ''}`);
          if (res.metrics) motion(e.turn, res.metrics, res.agent);
        });
        break;
      }
      case 'snapshot':
      case 'restore':
        log('/engine', t, LEVEL.INFO, 'simulator', `${e.type} ${e.id}${e.label ? ` (${e.label})` : ''}${e.simTimeSecs !== undefined ? ` at sim t=${e.simTimeSecs} s` : ''}`);
        break;
      case 'error':
        log('/errors', t, LEVEL.ERROR, e.kind, `${e.message}${e.file ? ` (${e.file}${e.line ? `:${e.line}` : ''})` : ''}`);
        break;
      case 'episode_end':
        log('/transcript', t, e.success ? LEVEL.INFO : LEVEL.WARNING, 'episode', `episode ended: ${e.success ? 'success' : 'failure'} (${e.reason})${e.message ? `: ${e.message}` : ''}`);
        break;
      default:
        break; // parsed_output, api_call, episode_start: in the role logs, metadata or /api_calls
    }
  }

  const schemas: Record<string, { name: string; encoding: string; data: string; messageEncoding: string }> = {
    '/tf': options.ros2Transforms
      ? { name: TF_SCHEMA_NAME, encoding: 'ros2msg', data: TF_SCHEMA_TEXT, messageEncoding: 'cdr' }
      : { name: 'foxglove.FrameTransforms', encoding: 'jsonschema', data: JSON.stringify(FrameTransforms), messageEncoding: 'json' },
    '/scene': { name: 'foxglove.SceneUpdate', encoding: 'jsonschema', data: JSON.stringify(SceneUpdate), messageEncoding: 'json' },
  };
  if (options.ros2Transforms) schemas['/tf_static'] = schemas['/tf']!;
  const logSchema = { name: 'foxglove.Log', encoding: 'jsonschema', data: JSON.stringify(Log), messageEncoding: 'json' };
  const own = (name: keyof typeof WAYPOINT_SCHEMAS) => ({ name: `waypoint.${name}`, encoding: 'jsonschema', data: JSON.stringify(WAYPOINT_SCHEMAS[name]), messageEncoding: 'json' });
  const schemaFor = (topic: string) =>
    schemas[topic] ?? (topic === '/robot/state' ? own('RobotState') : topic === '/api_calls' || topic === '/actions' ? own('ApiCall') : topic === '/checks' ? own('Check') : topic === '/metrics/motion' ? own('MotionMetrics') : logSchema);

  const out = new MemoryWritable();
  const writer = new McapWriter({
    writable: out, useStatistics: true, useChunks: true, useChunkIndex: true, useMessageIndex: true, useSummaryOffsets: true, useMetadataIndex: true,
    compressChunk: (data) => {
      const packed = lz4(data);
      return packed.byteLength < data.byteLength ? { compression: 'lz4', compressedData: packed } : { compression: '', compressedData: data };
    },
  });
  await writer.start({ profile: options.ros2Transforms ? 'ros2' : '', library: 'waypoint' });
  const schemaIds = new Map<string, number>();
  const channelIds = new Map<string, number>();
  // Channels in a stable order: by topic name.
  for (const topic of Object.keys(counts).sort()) {
    const s = schemaFor(topic);
    let sid = schemaIds.get(s.name);
    if (sid === undefined) {
      sid = await writer.registerSchema({ name: s.name, encoding: s.encoding, data: new TextEncoder().encode(s.data) });
      schemaIds.set(s.name, sid);
    }
    channelIds.set(topic, await writer.registerChannel({ topic, schemaId: sid, messageEncoding: s.messageEncoding, metadata: new Map() }));
  }
  pending.sort((a, b) => (a.logTime < b.logTime ? -1 : a.logTime > b.logTime ? 1 : a.order - b.order));
  const seqs = new Map<string, number>();
  for (const p of pending) {
    const seq = seqs.get(p.topic) ?? 0;
    seqs.set(p.topic, seq + 1);
    await writer.addMessage({ channelId: channelIds.get(p.topic)!, sequence: seq, logTime: p.logTime, publishTime: p.logTime, data: p.data });
  }
  const meta = new Map<string, string>([
    ['time', householdScenes.length
      ? `simulated time since reset, offset by the episode start (startedAt): the household's step clock, ${HOUSEHOLD_STEP_SECS} s per high-level step; agent turns sit at the sim time when they happened`
      : 'simulated time since reset, offset by the episode start (startedAt); agent turns sit at the sim time when they happened'],
    ['exporter', 'waypoint'],
  ]);
  if (start) {
    for (const [k, v] of Object.entries({ runId: start.runId, arch: start.arch, agentVariant: start.agentVariant, variant: start.variant, task: start.task, taskDescription: start.taskDescription, seed: String(start.seed), model: start.model.label, simulator: `${start.simulator.name}${start.simulator.version ? ` ${start.simulator.version}` : ''}`, startedAt: start.startedAt })) meta.set(k, v);
  }
  meta.set('result', end ? `${end.success ? 'success' : 'failure'} (${end.reason})` : 'no episode_end in the trace (interrupted or still running)');
  await writer.addMetadata({ name: 'waypoint.run', metadata: meta });
  await writer.end();
  const times = pending.map((p) => p.logTime);
  return {
    bytes: out.bytes(),
    counts,
    skippedGeoms,
    skippedEvents,
    startNs: times.length ? times.reduce((a, b) => (b < a ? b : a)) : origin,
    endNs: times.length ? times.reduce((a, b) => (b > a ? b : a)) : origin,
  };
}
