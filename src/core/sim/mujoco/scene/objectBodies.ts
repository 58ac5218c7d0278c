// MJCF bodies for a scene's objects. Free objects get a free joint; fixtures are mocap bodies (so reset can
// place them from the seed without recompiling); sliding parts (drawers, button caps) are nested in their fixed
// parent with a slide joint. Single-box free objects keep the original one-geom form.
import { FIXTURE_COLLISION, NO_COLLISION, NO_TABLE_COLLISION, OBJECT_COLLISION, type CollisionBits } from './collisionGroups.js';
import { el, type MjcfElement } from './mjcf.js';
import type { MountKind, ObjectSpec, PartSpec, SceneSpec } from './sceneSpec.js';

const DEFAULT_FRICTION: [number, number, number] = [1.0, 0.005, 0.0001];
/** Round things also resist rolling (condim 6), or a knocked-over can would roll off the table. */
const ROUND_FRICTION: [number, number, number] = [1.0, 0.005, 0.002];

export function mountKind(o: ObjectSpec): MountKind {
  return o.mount?.kind ?? 'free';
}

/** Objects the seed cannot move (mocap fixtures) have no grasp weld and never touch the table. */
export function isFixture(o: ObjectSpec): boolean {
  return mountKind(o) === 'fixed';
}

/** Geoms of an object: its parts, or one primitive filling `size`. */
export function objectParts(o: ObjectSpec): PartSpec[] {
  if (o.parts && o.parts.length > 0) return o.parts;
  const [x, y, z] = o.size;
  switch (o.shape) {
    case 'cylinder':
      return [{ shape: 'cylinder', size: [x / 2, z / 2] }];
    case 'sphere':
      return [{ shape: 'sphere', size: [x / 2] }];
    case 'box':
      return [{ shape: 'box', size: [x / 2, y / 2, z / 2] }];
    default:
      throw new Error(`object '${o.name}': shape 'compound' needs parts`);
  }
}

function geomsOf(o: ObjectSpec, bits: CollisionBits, withMass: boolean): MjcfElement[] {
  const parts = objectParts(o);
  const solid = parts.filter((p) => !p.visual);
  const given = solid.reduce((s, p) => s + (p.massKg ?? 0), 0);
  const unassigned = solid.filter((p) => p.massKg === undefined).length;
  const share = unassigned > 0 ? Math.max(o.massKg - given, 0) / unassigned : 0;
  const single = parts.length === 1;
  return parts.map((p, i) => {
    const visual = p.visual === true;
    const round = p.shape === 'cylinder' || p.shape === 'sphere';
    return el('geom', {
      name: single ? `${o.mjcfName}_geom` : `${o.mjcfName}_geom${i}`,
      type: p.shape,
      pos: p.pos,
      quat: p.quat,
      size: p.size,
      rgba: p.rgba ?? o.rgba,
      mass: withMass ? (visual ? 0 : (p.massKg ?? share)) : undefined,
      friction: visual ? undefined : (p.friction ?? o.friction ?? (round ? ROUND_FRICTION : DEFAULT_FRICTION)),
      condim: visual ? undefined : round ? 6 : 4,
      ...(visual ? NO_COLLISION : p.noTable ? NO_TABLE_COLLISION : bits),
    });
  });
}

/** Object bodies in spec order (sliding parts nested in their parents). */
export function buildObjectBodies(spec: SceneSpec): MjcfElement[] {
  const { table } = spec;
  const byName = new Map<string, MjcfElement>();
  const roots: MjcfElement[] = [];
  spec.objects.forEach((o, i) => {
    const kind = mountKind(o);
    // Placeholder positions in a row at the far edge of the table; reset() places everything from the seed.
    const parkPos = [-0.5 + 0.12 * i, table.center[1] + table.halfExtents[1] - 0.06, table.topZ + o.size[2] / 2];
    if (kind === 'free') {
      const body = el('body', { name: o.mjcfName, pos: parkPos }, [el('freejoint', { name: `${o.mjcfName}_joint` }), ...geomsOf(o, OBJECT_COLLISION, true)]);
      byName.set(o.name, body);
      roots.push(body);
    } else if (kind === 'fixed') {
      const body = el('body', { name: o.mjcfName, mocap: true, pos: parkPos }, geomsOf(o, FIXTURE_COLLISION, false));
      byName.set(o.name, body);
      roots.push(body);
    } else if (o.mount?.kind === 'cable') {
      // MuJoCo's composite cable: its first segment is free; the compiler names the bodies from the prefix.
      const m = o.mount;
      roots.push(
        el('composite', { type: 'cable', prefix: m.prefix, count: [m.segments + 1, 1, 1], curve: 's', size: [m.lengthM], initial: 'free', offset: [parkPos[0], parkPos[1] - 0.1, table.topZ + m.radiusM] }, [
          el('joint', { kind: 'main', damping: m.dampingNms ?? 0.01, stiffness: m.stiffnessNmpr ?? 0 }),
          el('geom', { type: 'capsule', size: [m.radiusM], rgba: o.rgba, mass: o.massKg / m.segments, friction: o.friction ?? [1.0, 0.005, 0.0001], condim: 4, ...OBJECT_COLLISION }),
        ]),
      );
    } else if (o.mount?.kind === 'cableEnd') {
      // The body exists once the cable's composite is compiled.
    } else if (o.mount?.kind === 'part') {
      const m = o.mount;
      const parent = byName.get(m.parent);
      const parentSpec = spec.objects.find((p) => p.name === m.parent);
      if (!parent || !parentSpec) throw new Error(`object '${o.name}': part parent '${m.parent}' must be an object listed before it`);
      const bits = mountKind(parentSpec) === 'free' ? OBJECT_COLLISION : FIXTURE_COLLISION;
      const body = el('body', { name: o.mjcfName, pos: m.pos, quat: m.quat }, geomsOf(o, bits, mountKind(parentSpec) !== 'fixed'));
      byName.set(o.name, body);
      parent.children = [...(parent.children ?? []), body];
    } else if (o.mount?.kind === 'hinge') {
      const m = o.mount;
      const parent = byName.get(m.parent);
      const parentSpec = spec.objects.find((p) => p.name === m.parent);
      if (!parent || !parentSpec || mountKind(parentSpec) !== 'fixed') {
        throw new Error(`object '${o.name}': hinge parent '${m.parent}' must be a fixed object listed before it`);
      }
      const body = el('body', { name: o.mjcfName, pos: m.pos }, [
        el('joint', { name: `${o.mjcfName}_joint`, type: 'hinge', axis: m.axis, range: m.rangeRad, frictionloss: m.frictionLossNm, damping: m.dampingNms ?? 0.5, stiffness: m.stiffnessNmPerRad, armature: 0.01 }),
        ...geomsOf(o, FIXTURE_COLLISION, true),
      ]);
      byName.set(o.name, body);
      parent.children = [...(parent.children ?? []), body];
    } else {
      const m = o.mount as Extract<ObjectSpec['mount'], { kind: 'slide' }>;
      const parent = byName.get(m.parent);
      const parentSpec = spec.objects.find((p) => p.name === m.parent);
      if (!parent || !parentSpec || mountKind(parentSpec) !== 'fixed') {
        throw new Error(`object '${o.name}': slide parent '${m.parent}' must be a fixed object listed before it`);
      }
      const body = el('body', { name: o.mjcfName, pos: m.pos }, [
        el('joint', {
          name: `${o.mjcfName}_joint`,
          type: 'slide',
          axis: m.axis,
          range: m.rangeM,
          frictionloss: m.frictionLossN,
          damping: m.dampingNspm ?? 5,
          stiffness: m.stiffnessNpm,
          armature: 0.01,
        }),
        ...geomsOf(o, FIXTURE_COLLISION, true),
      ]);
      byName.set(o.name, body);
      parent.children = [...(parent.children ?? []), body];
    }
  });
  return roots;
}
