// What the 3D replay draws on top of the recorded bodies: the end-effector path (dim ahead of the playhead,
// bright behind it), a dot at the end effector, commanded waypoints (the current turn's larger; red when the
// call failed) and collision markers, plus the red tint of bodies while they collide. Lazily loaded with three.js.
import {
  BufferAttribute, BufferGeometry, Color, InstancedMesh, Line, LineBasicMaterial, Matrix4, Mesh, MeshBasicMaterial, Quaternion,
  SphereGeometry, Vector3, type Scene,
} from 'three';
import type { Collision3d, Scene3dBuilder, Waypoint3d } from '../../src/core/trace/projections/scene3d.js';
import type { TrajectorySeriesBuilder } from '../../src/core/trace/projections/trajectorySeries.js';
import type { BodyObjects } from './replay3dScene.js';

/** Most path vertices drawn (a longer run is strided; the line is 1 px wide, more would not show). */
const MAX_PATH_POINTS = 60_000;
const WAYPOINT_RADIUS_M = 0.008;
const COLLISION_RADIUS_M = 0.02;
const EE_RADIUS_M = 0.006;
/** Samples either side of a collision's first sample during which its bodies are tinted (also without contact lists). */
const COLLISION_GLOW_SAMPLES = 12;
/** Colour colliding bodies are tinted toward. */
const HOT = new Color(1, 0.05, 0.05);

function cssVar(name: string, fallback: string): string {
  return getComputedStyle(document.body).getPropertyValue(name).trim() || fallback;
}

export function cssColor(name: string, fallback: string): Color {
  const c = new Color();
  try {
    c.setStyle(cssVar(name, fallback));
  } catch {
    c.setStyle(fallback);
  }
  return c;
}

export class ReplayMarkers {
  private path: { full: Line; done: Line; stride: number } | undefined;
  /** Multi-arm runs: the executed path of every other robot's hand (the first robot's is `path`). */
  private armPaths: Line[] = [];
  private waypoints: InstancedMesh | undefined;
  private collisions: InstancedMesh | undefined;
  private collisionList: readonly Collision3d[] = [];
  private wps: readonly Waypoint3d[] = [];
  private readonly ee: Mesh;
  private turn: number | undefined;

  constructor(private readonly scene: Scene) {
    this.ee = new Mesh(new SphereGeometry(EE_RADIUS_M, 12, 8), new MeshBasicMaterial({ depthTest: false, transparent: true }));
    this.ee.renderOrder = 10;
    this.ee.visible = false;
    scene.add(this.ee);
  }

  buildPath(series: TrajectorySeriesBuilder): void {
    if (this.path) {
      this.path.full.geometry.dispose();
      for (const l of [this.path.full, this.path.done]) {
        (l.material as LineBasicMaterial).dispose();
        l.removeFromParent();
      }
      this.path = undefined;
    }
    const n = series.length;
    if (n === 0) return;
    const stride = Math.max(1, Math.ceil(n / MAX_PATH_POINTS));
    const count = Math.ceil(n / stride);
    const pos = new Float32Array(3 * count);
    for (let k = 0, i = 0; k < count; k++, i += stride) {
      pos[3 * k] = series.x[i];
      pos[3 * k + 1] = series.y[i];
      pos[3 * k + 2] = series.z[i];
    }
    const geometry = new BufferGeometry();
    geometry.setAttribute('position', new BufferAttribute(pos, 3));
    const doneGeometry = new BufferGeometry();
    doneGeometry.setAttribute('position', geometry.getAttribute('position'));
    const color = cssColor('--vscode-charts-purple', '#b180d7');
    const full = new Line(geometry, new LineBasicMaterial({ color, transparent: true, opacity: 0.5 }));
    const done = new Line(doneGeometry, new LineBasicMaterial({ color }));
    this.scene.add(full, done);
    this.path = { full, done, stride };
  }

  /**
   * The other robots' executed paths: each robot's hand body (or suction cup) through the recorded body poses,
   * drawn in the charts' palette. The first robot's path is the end-effector path above.
   */
  private buildArmPaths(scene3d: Scene3dBuilder): void {
    for (const l of this.armPaths) {
      l.geometry.dispose();
      (l.material as LineBasicMaterial).dispose();
      l.removeFromParent();
    }
    this.armPaths = [];
    const hands = scene3d.bodies.map((label, b) => ({ robot: /^(\w+) (?:hand|suction cup)$/.exec(label)?.[1], b })).filter((x): x is { robot: string; b: number } => x.robot !== undefined);
    const robots = [...new Set(hands.map((x) => x.robot))];
    const n = scene3d.length;
    if (robots.length < 2 || n === 0 || !scene3d.hasPoses()) return;
    const palette = ['--vscode-charts-orange', '--vscode-charts-green', '--vscode-charts-blue'];
    const fallback = ['#d18616', '#89d185', '#3794ff'];
    const stride = Math.max(1, Math.ceil(n / MAX_PATH_POINTS));
    const pose = new Float64Array(7);
    robots.slice(1).forEach((robot, k) => {
      const b = hands.find((x) => x.robot === robot)!.b;
      const pts: number[] = [];
      for (let i = 0; i < n; i += stride) if (scene3d.pose(i, b, pose)) pts.push(pose[0], pose[1], pose[2]);
      if (pts.length < 6) return;
      const geometry = new BufferGeometry();
      geometry.setAttribute('position', new BufferAttribute(new Float32Array(pts), 3));
      const line = new Line(geometry, new LineBasicMaterial({ color: cssColor(palette[k % 3]!, fallback[k % 3]!), transparent: true, opacity: 0.8 }));
      line.name = `path:${robot}`;
      this.armPaths.push(line);
      this.scene.add(line);
    });
  }

  /** Waypoints and collisions (rebuilt when the scene model changes: new calls, checks or contacts). */
  buildMarkers(scene3d: Scene3dBuilder): void {
    this.buildArmPaths(scene3d);
    for (const m of [this.waypoints, this.collisions]) {
      if (!m) continue;
      m.geometry.dispose();
      (m.material as MeshBasicMaterial).dispose();
      m.removeFromParent();
    }
    this.waypoints = this.collisions = undefined;
    this.wps = scene3d.waypoints();
    if (this.wps.length) {
      const mesh = new InstancedMesh(new SphereGeometry(WAYPOINT_RADIUS_M, 14, 10), new MeshBasicMaterial(), this.wps.length);
      mesh.name = 'waypoints';
      const ok = cssColor('--vscode-charts-yellow', '#cca700');
      const bad = cssColor('--vscode-charts-red', '#f14c4c');
      this.wps.forEach((w, k) => mesh.setColorAt(k, w.ok ? ok : bad));
      this.waypoints = mesh;
      this.scene.add(mesh);
      this.layoutWaypoints();
    }
    this.collisionList = scene3d.collisions();
    const placed = this.collisionList.map((c) => scene3d.collisionPoint(c));
    if (placed.some((p) => p)) {
      // Drawn through everything: a collision is often inside the gripper or between two bodies.
      const mat = new MeshBasicMaterial({ color: cssColor('--vscode-charts-red', '#f14c4c'), transparent: true, opacity: 0.55, depthWrite: false, depthTest: false });
      const mesh = new InstancedMesh(new SphereGeometry(COLLISION_RADIUS_M, 16, 12), mat, placed.length);
      mesh.name = 'collisions';
      mesh.renderOrder = 9;
      const m = new Matrix4();
      placed.forEach((p, k) => {
        const s = p ? 1 : 0;
        m.makeScale(s, s, s).setPosition(p?.[0] ?? 0, p?.[1] ?? 0, p?.[2] ?? 0);
        mesh.setMatrixAt(k, m);
      });
      this.collisions = mesh;
      this.scene.add(mesh);
    }
  }

  /** Moves the playhead-dependent parts to sample i. */
  setSample(i: number, series: TrajectorySeriesBuilder, scene3d: Scene3dBuilder, bodies: readonly BodyObjects[]): void {
    this.ee.position.set(series.x[i], series.y[i], series.z[i]);
    this.ee.visible = true;
    if (this.path) this.path.done.geometry.setDrawRange(0, Math.floor(i / this.path.stride) + 1);
    const turn = series.turn[i];
    if (turn !== this.turn) {
      this.turn = turn;
      this.layoutWaypoints();
    }
    this.highlightCollisions(i, turn, scene3d, bodies);
  }

  /** Waypoints of the current turn are drawn larger. */
  private layoutWaypoints(): void {
    const mesh = this.waypoints;
    if (!mesh) return;
    const m = new Matrix4();
    const q = new Quaternion();
    this.wps.forEach((w, k) => {
      const s = w.turn === this.turn ? 1.8 : 1;
      m.compose(new Vector3(...w.pos), q, new Vector3(s, s, s));
      mesh.setMatrixAt(k, m);
    });
    mesh.instanceMatrix.needsUpdate = true;
  }

  /** Tints the bodies of a collision while they touch in its turn, and around its first sample. */
  private highlightCollisions(i: number, turn: number, scene3d: Scene3dBuilder, bodies: readonly BodyObjects[]): void {
    const hot = new Set<string>();
    if (this.collisionList.length) {
      const contacts = scene3d.contactsAt(i);
      for (const c of this.collisionList) {
        const touching = c.turn === turn && contacts.some(([a, b]) => (a === c.a && b === c.b) || (a === c.b && b === c.a));
        if (touching || Math.abs(i - c.sampleIndex) <= COLLISION_GLOW_SAMPLES) hot.add(c.a).add(c.b);
      }
    }
    for (const b of bodies) {
      const on = hot.has(b.group.name);
      for (const m of b.materials) {
        if ((m.userData.hot ?? false) === on) continue;
        m.userData.hot = on;
        // Tint toward red (an emissive glow alone turns a blue body magenta).
        if (on) {
          m.userData.color ??= m.color.clone();
          m.color.copy(m.userData.color as Color).lerp(HOT, 0.75);
        } else if (m.userData.color) m.color.copy(m.userData.color as Color);
        m.emissive.copy(HOT);
        m.emissiveIntensity = on ? 0.35 : 0;
      }
    }
  }

  applyTheme(): void {
    (this.ee.material as MeshBasicMaterial).color = cssColor('--vscode-foreground', '#cccccc');
    if (this.path) {
      const c = cssColor('--vscode-charts-purple', '#b180d7');
      (this.path.full.material as LineBasicMaterial).color = c;
      (this.path.done.material as LineBasicMaterial).color = c;
    }
  }

  counts(): { waypointMarkers: number; collisionMarkers: number; pathPoints: number; armPaths: number } {
    return {
      armPaths: this.armPaths.length,
      waypointMarkers: this.waypoints?.count ?? 0,
      collisionMarkers: this.collisions?.count ?? 0,
      pathPoints: this.path ? (this.path.full.geometry.getAttribute('position') as BufferAttribute).count : 0,
    };
  }
}
