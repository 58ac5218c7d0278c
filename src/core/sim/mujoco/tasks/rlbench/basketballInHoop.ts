// basketball_in_hoop (RLBench basketball_in_hoop, as in MALMM): a small basketball on the table and a hoop on a pole,
// its ring 20 cm above the table. RLBench has one variation; the seed moves the hoop (and turns its pole) and the
// ball. Success is read from the ball's track, not its end pose: a monitor watches the ball on the 50 Hz grid and
// counts a pass when its centre crosses the ring's plane downward inside the ring's opening (interpolated between
// samples). The ball must have passed through at least once and be released at the end.
import { find, held, localOf, verdict } from '../checks.js';
import { LayoutBuilder } from '../layout.js';
import { cylinder, rgbaOf, sphere } from '../sceneObjects.js';
import { SINGLE_ARM_WORKSPACE, TABLE_TOP_Z, singleArmScene } from '../tabletopCommon.js';
import type { TaskDefinition, TaskMonitor, TaskView } from '../taskDefinition.js';
import { mjcfSafe, type ObjectSpec, type PartSpec } from '../../scene/sceneSpec.js';

export const BALL_RADIUS_M = 0.022;
/** The ring's centre line; its tube is RING_TUBE_M thick, so the opening is 9.6 cm across. */
const RING_RADIUS_M = 0.052;
const RING_TUBE_M = 0.008;
export const RING_OPENING_RADIUS_M = RING_RADIUS_M - RING_TUBE_M / 2;
/** Height of the ring's plane above the table top. */
export const RIM_HEIGHT_M = 0.2;
/** The pole stands this far from the ring's centre, along the hoop's local +x (its yaw points at the pole). */
const POLE_OFFSET_M = 0.09;
const POLE_RADIUS_M = 0.012;
const SEGMENTS = 16;

/** A flat ring of box segments (no bottom) and the bar that joins it to the pole. Frame: the ring's centre. */
function hoop(name: string, color: string): ObjectSpec {
  const half = RING_RADIUS_M * Math.tan(Math.PI / SEGMENTS) + RING_TUBE_M / 2;
  const parts: PartSpec[] = [];
  for (let i = 0; i < SEGMENTS; i++) {
    const a = (2 * Math.PI * i) / SEGMENTS;
    parts.push({ shape: 'box', size: [RING_TUBE_M / 2, half, RING_TUBE_M / 2], pos: [RING_RADIUS_M * Math.cos(a), RING_RADIUS_M * Math.sin(a), 0], quat: [Math.cos(a / 2), 0, 0, Math.sin(a / 2)] });
  }
  const barFrom = RING_RADIUS_M + RING_TUBE_M / 2;
  parts.push({ shape: 'box', size: [(POLE_OFFSET_M - barFrom) / 2, 0.006, RING_TUBE_M / 2], pos: [(POLE_OFFSET_M + barFrom) / 2, 0, 0] });
  // Reported size: the ring (the bar is a detail of the stand).
  const d = 2 * (RING_RADIUS_M + RING_TUBE_M / 2);
  return { name, mjcfName: mjcfSafe(name), shape: 'compound', size: [d, d, RING_TUBE_M], color, rgba: rgbaOf(color), massKg: 0.3, parts, mount: { kind: 'fixed' } };
}

interface HoopTrack {
  /** Downward crossings of the ring's plane inside the opening. */
  passes: number;
  /** Every downward crossing of the plane: distance from the ring's centre (m) and whether the ball was held. */
  crossings: { offM: number; held: boolean }[];
  /** The ball's last sample in the hoop's frame. */
  prev: [number, number, number] | null;
}

function hoopMonitor(ballName: string, hoopName: string): TaskMonitor {
  let s: HoopTrack = { passes: 0, crossings: [], prev: null };
  return {
    sample(view: TaskView) {
      const ball = view.objects.find((o) => o.name === ballName);
      const ring = view.objects.find((o) => o.name === hoopName);
      if (!ball || !ring) return;
      const p = localOf(ball.pos, ring);
      const q = s.prev;
      s.prev = p;
      if (!q || !(q[2] > 0 && p[2] <= 0)) return;
      const t = q[2] / (q[2] - p[2]);
      const offM = Math.hypot(q[0] + t * (p[0] - q[0]), q[1] + t * (p[1] - q[1]));
      if (s.crossings.length < 20) s.crossings.push({ offM, held: view.grasped.includes(ballName) });
      if (offM < RING_OPENING_RADIUS_M) s.passes++;
    },
    state: () => ({ passes: s.passes, crossings: s.crossings.map((c) => ({ ...c })), prev: s.prev }),
    load(state) {
      const v = (state ?? {}) as Partial<HoopTrack>;
      s = { passes: Number(v.passes ?? 0), crossings: [...(v.crossings ?? [])], prev: v.prev ?? null };
    },
  };
}

export function basketballInHoopTask(): TaskDefinition {
  const ball = sphere('basketball', 'orange', BALL_RADIUS_M, 0.03);
  const ring = hoop('hoop', 'red');
  const pole = { ...cylinder('hoop pole', 'grey', POLE_RADIUS_M, RIM_HEIGHT_M + 0.01, 0.5), mount: { kind: 'fixed' as const } };
  const objects = [ball, ring, pole];
  return {
    info: {
      id: 'basketball_in_hoop',
      description: 'A 4.4 cm basketball and a hoop (9.6 cm opening, 20 cm up, on a pole); the ball must pass down through the ring.',
      instruction: 'Put the basketball in the hoop.',
      suite: 'single-arm',
      arms: 1,
      imitates: 'MALMM / RLBench basketball_in_hoop',
    },
    workspace: SINGLE_ARM_WORKSPACE,
    defaultApi: 'malmm',
    scene: singleArmScene('basketball-in-hoop', objects),
    layout(rng) {
      const l = new LayoutBuilder(rng);
      // The pole stands behind the ring as the robot sees it (+y, turned up to 0.6 rad either way).
      const h = l.scatter(ring, { x: [-0.18, 0.18], y: [0.06, 0.2] }, { z: TABLE_TOP_Z + RIM_HEIGHT_M, yawRange: [Math.PI / 2 - 0.6, Math.PI / 2 + 0.6] });
      l.at(pole, [h.pos[0] + POLE_OFFSET_M * Math.cos(h.yawRad), h.pos[1] + POLE_OFFSET_M * Math.sin(h.yawRad)], 0);
      // The ball lies in front of the ring, as RLBench spawns it: behind it, the arm reaching down for the ball
      // passed through the ring (a target the planned motion refuses).
      l.scatter(ball, { x: [-0.24, 0.24], y: [-0.02, h.pos[1]] }, { gapM: 0.04 });
      return l.placements(objects);
    },
    monitor: () => hoopMonitor(ball.name, ring.name),
    check(view) {
      const m = (view.monitor ?? {}) as Partial<HoopTrack>;
      const passes = Number(m.passes ?? 0);
      const crossings = m.crossings ?? [];
      const problems: string[] = [];
      if (held(view).length > 0) problems.push(`${held(view).join(', ')} still grasped`);
      if (passes === 0) {
        const b = find(view, ball.name);
        const r = find(view, ring.name);
        const nearest = crossings.length > 0 ? Math.min(...crossings.map((c) => c.offM)) : undefined;
        problems.push(
          nearest !== undefined
            ? `the basketball never passed through the hoop (it came down ${(nearest * 100).toFixed(1)} cm from the ring's centre at best; the opening's radius is ${(RING_OPENING_RADIUS_M * 100).toFixed(1)} cm)`
            : `the basketball never went down through the hoop's plane (it is at z ${b.pos[2].toFixed(3)}, the ring at ${r.pos[2].toFixed(3)})`,
        );
      }
      return verdict('basketball_in_hoop', problems, `the basketball passed down through the hoop${passes > 1 ? ` (${passes} times)` : ''}`);
    },
  };
}
