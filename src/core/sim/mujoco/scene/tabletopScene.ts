// Composes a tabletop scene: floor, table, arms, free objects, the grasp welds and the contact sensors that
// collision reporting and grasp detection read (sensor values are plain numbers, so checking contacts every
// physics step costs no Embind allocation).
import { armCollision, MAX_ARMS, WORLD_COLLISION } from './collisionGroups.js';
import { el, renderMjcf, type MjcfElement } from './mjcf.js';
import { buildObjectBodies, mountKind, objectParts } from './objectBodies.js';
import { buildArm } from './arms.js';
import { FIXTURE_FLOOR, FIXTURE_TABLE, type BodyLabel, type BuiltScene, type ContactPairSensor, type SceneSpec } from './sceneSpec.js';

export const TABLE_BODY = 'table';
export const FLOOR_GEOM = 'floor';

export function buildTabletopScene(spec: SceneSpec): BuiltScene {
  const { table } = spec;
  if (spec.arms.length < 1 || spec.arms.length > MAX_ARMS) throw new Error(`scene '${spec.key}': ${spec.arms.length} arms; scenes hold 1-${MAX_ARMS}`);
  const builtArms = spec.arms.map((a, i) => buildArm(a, armCollision(i, spec.arms.length)));
  const tableThickness = 0.04;
  const legHeight = table.topZ - tableThickness;
  const legs: MjcfElement[] = [
    [1, 1],
    [1, -1],
    [-1, 1],
    [-1, -1],
  ].map(([sx, sy], i) =>
    el('geom', {
      name: `table_leg${i}`,
      type: 'box',
      pos: [sx! * (table.halfExtents[0] - 0.04), sy! * (table.halfExtents[1] - 0.04), -tableThickness - legHeight / 2],
      size: [0.025, 0.025, legHeight / 2],
      rgba: [0.45, 0.33, 0.22, 1],
      contype: 0,
      conaffinity: 0,
    }),
  );
  const tableBody = el('body', { name: TABLE_BODY, pos: [table.center[0], table.center[1], table.topZ] }, [
    el('geom', {
      name: 'table_top',
      type: 'box',
      pos: [0, 0, -tableThickness / 2],
      size: [table.halfExtents[0], table.halfExtents[1], tableThickness / 2],
      rgba: [0.62, 0.5, 0.36, 1],
      friction: [0.8, 0.005, 0.0001],
      ...WORLD_COLLISION,
    }),
    ...legs,
  ]);

  const objects = buildObjectBodies(spec);

  const welds: MjcfElement[] = [];
  const graspWelds = builtArms.map((arm) =>
    spec.objects.map((o) => {
      // Fixtures cannot be carried: no weld ('' keeps the per-object indexing).
      if (mountKind(o) === 'fixed') return '';
      const name = `${arm.layout.spec.prefix}grasp_${o.mjcfName}`;
      // Stiffer than the default so a held object does not sag; inactive until close_gripper detects a grasp.
      welds.push(el('weld', { name, body1: arm.layout.handBody, body2: o.mjcfName, active: false, solref: [0.01, 1] }));
      return name;
    }),
  );

  // Few sensors on purpose: each one scans the contact list every step. The arm's subtree sensor says "the
  // arm touches X"; which link it is gets looked up only when that happens outside a grasp.
  const sensors: MjcfElement[] = [];
  const contactSensors: ContactPairSensor[] = [];
  const target = (other: number): Record<string, string> =>
    other === FIXTURE_TABLE ? { body2: TABLE_BODY } : other === FIXTURE_FLOOR ? { geom2: FLOOR_GEOM } : { body2: spec.objects[other]!.mjcfName };
  // Objects with no solid geom (markers, target areas) never touch anything: no sensors for them.
  const solid = (i: number) => objectParts(spec.objects[i]!).some((p) => !p.visual);
  const free = (i: number) => mountKind(spec.objects[i]!) !== 'fixed';
  const add = (s: ContactPairSensor, first: Record<string, string>, other: number) => {
    contactSensors.push(s);
    sensors.push(el('contact', { name: s.sensor, ...first, ...target(other), data: 'found', num: 1 }));
  };
  const name = () => `contact_${contactSensors.length}`;
  const objectIds = spec.objects.map((_, i) => i).filter(solid);
  builtArms.forEach((arm, a) => {
    for (const other of [FIXTURE_TABLE, ...objectIds]) add({ kind: 'arm', sensor: name(), arm: a, other }, { subtree1: arm.layout.bodies[0]!.mjcf }, other);
    const g = arm.layout.gripper;
    // A hand's two sides (thumb, fingers) are subtrees of several links each.
    const pads: Record<string, string>[] = g.kind === 'parallel' ? g.bodies.map((b) => ({ body1: b })) : g.kind === 'hand' ? g.sides.map((b) => ({ subtree1: b })) : [{ body1: g.body }];
    pads.forEach((first, side) => {
      for (const other of objectIds) add({ kind: 'finger', sensor: name(), arm: a, side: side as 0 | 1, other }, first, other);
    });
  });
  for (let a = 0; a < builtArms.length; a++)
    for (let b = a + 1; b < builtArms.length; b++) {
      const s: ContactPairSensor = { kind: 'arms', sensor: name(), arm: a, otherArm: b };
      contactSensors.push(s);
      sensors.push(el('contact', { name: s.sensor, subtree1: builtArms[a]!.layout.bodies[0]!.mjcf, subtree2: builtArms[b]!.layout.bodies[0]!.mjcf, data: 'found', num: 1 }));
    }
  // Object-object pairs where something can move (fixtures never touch the table or each other).
  for (const o of objectIds)
    for (const other of [...(free(o) ? [FIXTURE_TABLE, FIXTURE_FLOOR] : []), ...objectIds.filter((j) => j > o && (free(o) || free(j)))])
      add({ kind: 'object', sensor: name(), object: o, other }, { body1: spec.objects[o]!.mjcfName }, other);

  const root = el('mujoco', { model: spec.key }, [
    el('compiler', { angle: 'radian', autolimits: true }),
    // multiccd: several contact points for convex pairs (cylinders standing on boxes would rock on one point).
    el('option', { timestep: spec.timestepSecs, integrator: 'implicitfast', cone: 'elliptic', impratio: 10 }, [el('flag', { multiccd: 'enable' })]),
    el('visual', {}, [el('global', { offwidth: 640, offheight: 480 })]),
    el('worldbody', {}, [
      el('light', { name: 'sun', pos: [0, 0, 3], dir: [0, 0, -1], directional: true }),
      el('geom', { name: FLOOR_GEOM, type: 'plane', size: [3, 3, 0.1], rgba: [0.8, 0.8, 0.8, 1], ...WORLD_COLLISION }),
      tableBody,
      ...builtArms.map((a) => a.body),
      ...objects,
    ]),
    el('actuator', {}, builtArms.flatMap((a) => a.actuators)),
    el('equality', {}, welds),
    el('sensor', {}, sensors),
  ]);

  const bodies: BodyLabel[] = [
    { mjcf: 'world', label: 'world' },
    { mjcf: TABLE_BODY, label: 'table' },
    ...builtArms.flatMap((a) => a.layout.bodies),
    ...spec.objects.flatMap((o) => {
      const m = o.mount;
      // A cable's inner segments are bodies of their own (replayed, not objects): "<name> link k".
      const inner = m?.kind === 'cable' ? Array.from({ length: m.segments - 2 }, (_, k) => ({ mjcf: `${m.prefix}B_${k + 1}`, label: `${o.name} link ${k + 1}` })) : [];
      return [{ mjcf: o.mjcfName, label: o.name }, ...inner];
    }),
  ];
  return { spec, xml: renderMjcf(root), arms: builtArms.map((a) => a.layout), bodies, contactSensors, graspWelds };
}
