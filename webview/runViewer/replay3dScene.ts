// Builds three.js objects from the trace's recorded geometry: one Group per scene body (posed from the samples)
// holding one Mesh per geom at its local pose. MuJoCo sizes are half-sizes (box: half extents; sphere: radius;
// capsule/cylinder: radius and half-length along local z; ellipsoid: semi-axes; plane: half extents, 0 = infinite),
// quaternions are w-first and the world is z-up. Mesh geoms carry no vertices in the trace: drawn as their
// bounding box in wireframe. Loaded lazily with three.js (only when the 3D tab opens).
import {
  BoxGeometry, BufferGeometry, CapsuleGeometry, Color, CylinderGeometry, Group, Mesh, MeshStandardMaterial, PlaneGeometry,
  SRGBColorSpace, SphereGeometry, type Material,
} from 'three';
import type { SceneGeom } from '../../src/core/trace/projections/scene3d.js';

/** Size drawn for MuJoCo's infinite planes (size 0), metres (half extent). */
const INFINITE_PLANE_HALF_M = 2;

export interface BodyObjects {
  group: Group;
  meshes: Mesh[];
  /** Materials of the body, to tint the ones in a collision. */
  materials: MeshStandardMaterial[];
}

function geometryFor(g: SceneGeom): { geometry: BufferGeometry; wire: boolean } {
  const s = (i: number, fallback = 0.01) => (Number.isFinite(g.size[i]) && g.size[i] > 0 ? g.size[i] : fallback);
  switch (g.kind) {
    case 'box':
      return { geometry: new BoxGeometry(2 * s(0), 2 * s(1), 2 * s(2)), wire: false };
    case 'sphere':
      return { geometry: new SphereGeometry(s(0), 24, 16), wire: false };
    case 'ellipsoid': {
      const geometry = new SphereGeometry(1, 24, 16);
      geometry.scale(s(0), s(1), s(2));
      return { geometry, wire: false };
    }
    case 'capsule': {
      // three's capsule and cylinder run along +y; MuJoCo's along local z.
      const geometry = new CapsuleGeometry(s(0), 2 * s(1, 0), 8, 20);
      geometry.rotateX(Math.PI / 2);
      return { geometry, wire: false };
    }
    case 'cylinder': {
      const geometry = new CylinderGeometry(s(0), s(0), 2 * s(1), 24);
      geometry.rotateX(Math.PI / 2);
      return { geometry, wire: false };
    }
    case 'plane': {
      const hx = g.size[0] > 0 ? g.size[0] : INFINITE_PLANE_HALF_M;
      const hy = g.size[1] > 0 ? g.size[1] : INFINITE_PLANE_HALF_M;
      return { geometry: new PlaneGeometry(2 * hx, 2 * hy), wire: false };
    }
    case 'mesh':
      return { geometry: new BoxGeometry(2 * s(0), 2 * s(1), 2 * s(2)), wire: true };
  }
}

export function colorOf(rgba: readonly number[]): Color {
  return new Color().setRGB(rgba[0], rgba[1], rgba[2], SRGBColorSpace);
}

/** One Group per scene body (in scene.bodies order, so sample poses index them directly). */
export function buildBodies(bodies: readonly string[], geoms: readonly SceneGeom[]): BodyObjects[] {
  const out: BodyObjects[] = bodies.map((name) => {
    const group = new Group();
    group.name = name;
    return { group, meshes: [], materials: [] };
  });
  const index = new Map(bodies.map((b, i) => [b, i]));
  for (const g of geoms) {
    let bi = index.get(g.body);
    if (bi === undefined) {
      // A geom of a body the scene does not list: keep it, static at the origin.
      bi = out.length;
      index.set(g.body, bi);
      const group = new Group();
      group.name = g.body;
      out.push({ group, meshes: [], materials: [] });
    }
    const { geometry, wire } = geometryFor(g);
    const alpha = g.rgba[3];
    const material = new MeshStandardMaterial({
      color: colorOf(g.rgba),
      roughness: 0.75,
      metalness: 0.05,
      transparent: alpha < 1,
      opacity: alpha,
      wireframe: wire,
      // Links meet in coincident surfaces (a joint sphere and a capsule end of the same radius, two capsule
      // ends): break the depth ties (sphere first, then every other body) instead of both showing in stripes.
      polygonOffset: true,
      polygonOffsetFactor: g.kind === 'sphere' ? -1 : 0,
      polygonOffsetUnits: g.kind === 'sphere' ? -4 : -2 * (bi % 2),
    });
    const mesh = new Mesh(geometry, material);
    mesh.name = `${g.body}:${g.kind}`;
    mesh.position.set(g.pos[0], g.pos[1], g.pos[2]);
    mesh.quaternion.set(g.quat[1], g.quat[2], g.quat[3], g.quat[0]).normalize();
    mesh.castShadow = g.kind !== 'plane' && !wire;
    mesh.receiveShadow = true;
    mesh.userData.kind = g.kind;
    out[bi].group.add(mesh);
    out[bi].meshes.push(mesh);
    out[bi].materials.push(material);
  }
  return out;
}

/** Frees GPU buffers of everything under the groups. */
export function disposeBodies(bodies: readonly BodyObjects[]): void {
  for (const b of bodies) {
    for (const m of b.meshes) {
      m.geometry.dispose();
      (m.material as Material).dispose();
    }
    b.group.removeFromParent();
  }
}
