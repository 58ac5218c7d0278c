// SceneModel: the compiled MJCF of one scene plus every id the controllers need, looked up once. Immutable
// for a task (the grasp weld's relative pose is the one exception: it is written when a grasp starts and is
// carried in snapshots, see grasp.ts). Owns the MjModel and deletes it exactly once in dispose().
import type { MjModel } from 'mujoco-js';
import type { SceneGeometryInfo } from '../simulator.js';
import { mountKind } from './scene/objectBodies.js';
import { buildTabletopScene } from './scene/tabletopScene.js';
import { FIXTURE_FLOOR, FIXTURE_TABLE, type ArmLayout, type BuiltScene, type ContactPairSensor, type MountKind, type MountSpec, type SceneSpec } from './scene/sceneSpec.js';
import { compileMjcf, type Mujoco } from './wasm.js';

export interface ArmIndex {
  layout: ArmLayout;
  /** qpos address of each arm joint (hinges: one number each). */
  qposAdr: number[];
  dofAdr: number[];
  ctrlAdr: number[];
  /** The gripper's addresses: two finger joints and their servos, the suction cup's on/off control, or a hand's joints. */
  gripper:
    | { kind: 'parallel'; qposAdr: [number, number]; dofAdr: [number, number]; ctrlAdr: [number, number]; range: [number, number] }
    | { kind: 'suction'; ctrlAdr: number; body: number }
    | { kind: 'hand'; qposAdr: number[]; dofAdr: number[]; ctrlAdr: number[]; open: number[]; closed: number[]; openThumbIn: number[]; tipSites: [number, number] };
  eeSite: number;
  handBody: number;
  /** Body ids of the arm (base first), used to name the link in a collision. */
  bodyIds: number[];
  /** Weld equality id per object. */
  graspEq: number[];
}

export interface ObjectIndex {
  name: string;
  body: number;
  /** How the object is mounted (scene/sceneSpec.ts MountSpec). */
  kind: MountKind;
  /** Cable segments: the pose reported is this geom's (a segment's centre), not the body frame at its start. -1: the body's. */
  poseGeom: number;
  /** A cable: the geom of every segment, first to last, and their bodies. */
  linkGeoms?: number[];
  linkBodies?: number[];
  /**
   * Free joint (free objects, a cable's first segment): qpos address of [x y z qw qx qy qz], dof address of
   * [vx vy vz wx wy wz]. Slide and hinge joints: the joint's single qpos/dof address. Others: -1.
   */
  qposAdr: number;
  dofAdr: number;
  /** Mocap index of a fixed object (-1 otherwise). */
  mocapId: number;
  /** Touching it with the arm is not a collision. */
  interactive: boolean;
  /** Geom ids of the object's body. */
  geoms: number[];
}

export interface SensorIndex {
  sensor: ContactPairSensor;
  adr: number;
}

const GEOM_KINDS: Record<number, SceneGeometryInfo['geoms'][number]['kind']> = {
  0: 'plane',
  2: 'sphere',
  3: 'capsule',
  4: 'ellipsoid',
  5: 'cylinder',
  6: 'box',
  7: 'mesh',
};

export class SceneModel {
  readonly arms: ArmIndex[];
  readonly objects: ObjectIndex[];
  readonly sensors: SensorIndex[];
  /** Body ids in replay order and their labels (world first). */
  readonly replayBodies: { id: number; label: string }[];
  /** Label of every body id, for contact messages. */
  readonly bodyLabel: string[];
  readonly timestepSecs: number;
  readonly tableBody: number;
  private disposed = false;

  private constructor(
    readonly mj: Mujoco,
    readonly model: MjModel,
    readonly built: BuiltScene,
  ) {
    const id = (type: number, name: string): number => {
      const i = mj.mj_name2id(model, type, name);
      if (i < 0) throw new Error(`SceneModel: '${name}' is missing from the compiled scene '${built.spec.key}'`);
      return i;
    };
    const O = mj.mjtObj;
    const jntQpos = model.jnt_qposadr as Int32Array;
    const jntDof = model.jnt_dofadr as Int32Array;
    const joint = (n: string) => id(O.mjOBJ_JOINT.value, n);
    const gripperIndex = (g: ArmLayout['gripper']): ArmIndex['gripper'] => {
      if (g.kind === 'parallel')
        return {
          kind: 'parallel',
          qposAdr: [jntQpos[joint(g.joints[0])]!, jntQpos[joint(g.joints[1])]!],
          dofAdr: [jntDof[joint(g.joints[0])]!, jntDof[joint(g.joints[1])]!],
          ctrlAdr: [id(O.mjOBJ_ACTUATOR.value, g.actuators[0]), id(O.mjOBJ_ACTUATOR.value, g.actuators[1])],
          range: g.range,
        };
      if (g.kind === 'hand')
        return {
          kind: 'hand',
          qposAdr: g.joints.map((j) => jntQpos[joint(j)]!),
          dofAdr: g.joints.map((j) => jntDof[joint(j)]!),
          ctrlAdr: g.actuators.map((a) => id(O.mjOBJ_ACTUATOR.value, a)),
          open: [...g.open],
          closed: [...g.closed],
          openThumbIn: [...g.openThumbIn],
          tipSites: [id(O.mjOBJ_SITE.value, g.tipSites[0]), id(O.mjOBJ_SITE.value, g.tipSites[1])],
        };
      return { kind: 'suction', ctrlAdr: id(O.mjOBJ_ACTUATOR.value, g.actuator), body: id(O.mjOBJ_BODY.value, g.body) };
    };
    this.arms = built.arms.map((layout, a) => ({
      layout,
      qposAdr: layout.joints.map((j) => jntQpos[joint(j)]!),
      dofAdr: layout.joints.map((j) => jntDof[joint(j)]!),
      ctrlAdr: layout.actuators.map((n) => id(O.mjOBJ_ACTUATOR.value, n)),
      gripper: gripperIndex(layout.gripper),
      eeSite: id(O.mjOBJ_SITE.value, layout.eeSite),
      handBody: id(O.mjOBJ_BODY.value, layout.handBody),
      bodyIds: layout.bodies.map((b) => id(O.mjOBJ_BODY.value, b.mjcf)),
      graspEq: built.graspWelds[a]!.map((w) => (w === '' ? -1 : id(O.mjOBJ_EQUALITY.value, w))),
    }));
    const geomBody = model.geom_bodyid as Int32Array;
    const mocapOf = model.body_mocapid as Int32Array;
    const cables = new Map(built.spec.objects.filter((o) => o.mount?.kind === 'cable').map((o) => [o.name, o.mount as Extract<MountSpec, { kind: 'cable' }>]));
    this.objects = built.spec.objects.map((o) => {
      const kind = mountKind(o);
      const body = id(O.mjOBJ_BODY.value, o.mjcfName);
      const m = o.mount;
      const j = m?.kind === 'cable' ? joint(`${m.prefix}J_first`) : kind === 'slide' || kind === 'hinge' || kind === 'free' ? joint(`${o.mjcfName}_joint`) : -1;
      const geoms: number[] = [];
      for (let g = 0; g < model.ngeom; g++) if (geomBody[g] === body) geoms.push(g);
      const cable = m?.kind === 'cable' ? m : m?.kind === 'cableEnd' ? cables.get(m.cable) : undefined;
      const linkGeoms =
        m?.kind === 'cable'
          ? Array.from({ length: m.segments }, (_, k) => id(O.mjOBJ_GEOM.value, `${m.prefix}G${k}`))
          : undefined;
      return {
        name: o.name,
        body,
        kind,
        poseGeom: cable ? geoms[0]! : -1,
        ...(linkGeoms ? { linkGeoms, linkBodies: linkGeoms.map((g) => geomBody[g]!) } : {}),
        qposAdr: j < 0 ? -1 : jntQpos[j]!,
        dofAdr: j < 0 ? -1 : jntDof[j]!,
        mocapId: kind === 'fixed' ? mocapOf[body]! : -1,
        interactive: o.interactive === true,
        geoms,
      };
    });
    const sensorAdr = model.sensor_adr as Int32Array;
    this.sensors = built.contactSensors.map((s) => ({ sensor: s, adr: sensorAdr[id(O.mjOBJ_SENSOR.value, s.sensor)]! }));
    this.bodyLabel = new Array<string>(model.nbody).fill('');
    this.replayBodies = built.bodies.map((b) => {
      const bid = b.mjcf === 'world' ? 0 : id(O.mjOBJ_BODY.value, b.mjcf);
      this.bodyLabel[bid] = b.label;
      return { id: bid, label: b.label };
    });
    this.timestepSecs = built.spec.timestepSecs;
    this.tableBody = id(O.mjOBJ_BODY.value, 'table');
  }

  static create(mj: Mujoco, spec: SceneSpec): SceneModel {
    const built = buildTabletopScene(spec);
    const model = compileMjcf(mj, built.xml, spec.key);
    try {
      return new SceneModel(mj, model, built);
    } catch (err) {
      model.delete();
      throw err;
    }
  }

  /** Label of the thing an 'other' index refers to (object name, 'table' or 'floor'). */
  otherLabel(other: number): string {
    if (other === FIXTURE_TABLE) return 'table';
    if (other === FIXTURE_FLOOR) return 'floor';
    return this.objects[other]!.name;
  }

  /** Body id of an 'other' index: object body, the table, or the world body (which holds the floor). */
  otherBody(other: number): number {
    if (other === FIXTURE_TABLE) return this.tableBody;
    if (other === FIXTURE_FLOOR) return 0;
    return this.objects[other]!.body;
  }

  /** Every geom with its body label, for 3D replay. Sizes are MuJoCo's (half extents, radii). */
  geometry(): SceneGeometryInfo {
    const m = this.model;
    const bodyOf = m.geom_bodyid as Int32Array;
    const type = m.geom_type as Int32Array;
    const size = m.geom_size as Float64Array;
    const pos = m.geom_pos as Float64Array;
    const quat = m.geom_quat as Float64Array;
    const rgba = m.geom_rgba as Float32Array;
    const geoms: SceneGeometryInfo['geoms'] = [];
    for (let g = 0; g < m.ngeom; g++) {
      const label = this.bodyLabel[bodyOf[g]!];
      const kind = GEOM_KINDS[type[g]!];
      if (!label || !kind) continue;
      const r = (x: number) => Math.round(x * 1e4) / 1e4;
      geoms.push({
        body: label,
        kind,
        size: Array.from(size.subarray(3 * g, 3 * g + 3)),
        pos: [pos[3 * g]!, pos[3 * g + 1]!, pos[3 * g + 2]!],
        quat: [quat[4 * g]!, quat[4 * g + 1]!, quat[4 * g + 2]!, quat[4 * g + 3]!],
        rgba: [r(rgba[4 * g]!), r(rgba[4 * g + 1]!), r(rgba[4 * g + 2]!), r(rgba[4 * g + 3]!)],
      });
    }
    return { bodies: this.replayBodies.map((b) => b.label), geoms };
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.model.delete();
  }
}
