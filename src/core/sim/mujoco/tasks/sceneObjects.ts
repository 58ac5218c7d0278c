// The tabletop's object library: blocks, cylinders (cans, bottles, glasses), cups, containers and bins, flat
// target areas and markers, a plate, a sponge, a marker pen, a drawer cabinet, a button, a shelf and a sink.
// Every object's frame sits at the centre of its bounding box, so "Center Position" is what it says.
import { mjcfSafe, type MountSpec, type ObjectSpec, type PartSpec, type Rgba, type Vec3 } from '../scene/sceneSpec.js';
import { COLORS } from './tabletopCommon.js';

export function rgbaOf(color: string): Rgba {
  const c = COLORS[color];
  if (!c) throw new Error(`no colour '${color}'; known: ${Object.keys(COLORS).join(', ')}`);
  return c;
}

function base(name: string, color: string, shape: ObjectSpec['shape'], size: Vec3, massKg: number): ObjectSpec {
  return { name, mjcfName: mjcfSafe(name), shape, size, color, rgba: rgbaOf(color), massKg };
}

/** A cube of wood-like density (600 kg/m^3). */
export function cube(name: string, color: string, edgeM = 0.05): ObjectSpec {
  return base(name, color, 'box', [edgeM, edgeM, edgeM], 600 * edgeM ** 3);
}

/** An upright cylinder (can, bottle, pen, tomato-sized things use sphere()). */
export function cylinder(name: string, color: string, radiusM: number, heightM: number, massKg: number): ObjectSpec {
  return base(name, color, 'cylinder', [2 * radiusM, 2 * radiusM, heightM], massKg);
}

export function sphere(name: string, color: string, radiusM: number, massKg: number): ObjectSpec {
  return base(name, color, 'sphere', [2 * radiusM, 2 * radiusM, 2 * radiusM], massKg);
}

/** Wall boxes around a circle (a hollow cylinder with `segments` flat sides) plus a bottom disc. */
export function ringParts(radiusM: number, heightM: number, wallM: number, bottomM: number, segments: number): PartSpec[] {
  const rMid = radiusM - wallM / 2;
  // Slight overlap so the ring has no gaps a finger could slip into.
  const halfWidth = rMid * Math.tan(Math.PI / segments) + wallM / 2;
  const parts: PartSpec[] = [{ shape: 'cylinder', size: [radiusM, bottomM / 2], pos: [0, 0, -heightM / 2 + bottomM / 2] }];
  for (let i = 0; i < segments; i++) {
    const a = (2 * Math.PI * i) / segments;
    parts.push({
      shape: 'box',
      size: [wallM / 2, halfWidth, heightM / 2],
      pos: [rMid * Math.cos(a), rMid * Math.sin(a), 0],
      quat: [Math.cos(a / 2), 0, 0, Math.sin(a / 2)],
    });
  }
  return parts;
}

/** An open cup (hollow, flat bottom). Feature 'rim': the top ring. */
export function cup(name: string, color: string, radiusM: number, heightM: number, massKg = 0.06, wallM = 0.005): ObjectSpec {
  return {
    ...base(name, color, 'compound', [2 * radiusM, 2 * radiusM, heightM], massKg),
    parts: ringParts(radiusM, heightM, wallM, 0.006, 12),
    features: [{ name: 'rim', pos: [0, 0, heightM / 2 - 0.005], size: [2 * radiusM, 2 * radiusM, 0.01] }],
  };
}

/**
 * A glass: a cup with a thin tall wall; with `liquid` a visual column inside (what tilts if the glass does).
 * Grasp it from the outside (diameter under 0.08 m).
 */
export function glass(name: string, color: string, radiusM: number, heightM: number, liquid: boolean, wallM = 0.004): ObjectSpec {
  const g = cup(name, color, radiusM, heightM, liquid ? 0.25 : 0.1, wallM);
  if (liquid) {
    g.parts = [...g.parts!, { shape: 'cylinder', size: [radiusM - 0.006, heightM * 0.35], pos: [0, 0, -heightM * 0.1], rgba: [0.95, 0.85, 0.3, 0.8], visual: true }];
  }
  return g;
}

/** An open box: bottom plus four walls. Outer extents `size`. Feature 'rim'. */
export function container(name: string, color: string, size: Vec3, options: { wallM?: number; fixed?: boolean; massKg?: number } = {}): ObjectSpec {
  const t = options.wallM ?? 0.01;
  const [x, y, z] = size;
  const parts: PartSpec[] = [
    { shape: 'box', size: [x / 2, y / 2, t / 2], pos: [0, 0, -z / 2 + t / 2] },
    { shape: 'box', size: [t / 2, y / 2, z / 2], pos: [x / 2 - t / 2, 0, 0] },
    { shape: 'box', size: [t / 2, y / 2, z / 2], pos: [-x / 2 + t / 2, 0, 0] },
    { shape: 'box', size: [x / 2 - t, t / 2, z / 2], pos: [0, y / 2 - t / 2, 0] },
    { shape: 'box', size: [x / 2 - t, t / 2, z / 2], pos: [0, -y / 2 + t / 2, 0] },
  ];
  return {
    ...base(name, color, 'compound', size, options.massKg ?? 0.5),
    parts,
    ...(options.fixed ? { mount: { kind: 'fixed' } as MountSpec } : {}),
    features: [{ name: 'rim', pos: [0, 0, z / 2 - 0.005], size: [x, y, 0.01] }],
  };
}

/** A flat square on the table that nothing touches (a goal region). */
export function targetArea(name: string, color: string, sideM: number): ObjectSpec {
  const o = base(name, color, 'box', [sideM, sideM, 0.002], 0);
  const rgba = rgbaOf(color);
  return { ...o, parts: [{ shape: 'box', size: [sideM / 2, sideM / 2, 0.001], rgba: [rgba[0], rgba[1], rgba[2], 0.5], visual: true }], mount: { kind: 'fixed' } };
}

/** A thin painted line on the table along its local x axis. */
export function line(name: string, color: string, lengthM: number, widthM = 0.01): ObjectSpec {
  const o = base(name, color, 'box', [lengthM, widthM, 0.002], 0);
  return { ...o, parts: [{ shape: 'box', size: [lengthM / 2, widthM / 2, 0.001], visual: true }], mount: { kind: 'fixed' } };
}

/** A floating, untouchable marker sphere (e.g. the lift target). */
export function markerSphere(name: string, color: string, radiusM: number): ObjectSpec {
  const rgba = rgbaOf(color);
  return { ...base(name, color, 'sphere', [2 * radiusM, 2 * radiusM, 2 * radiusM], 0), parts: [{ shape: 'sphere', size: [radiusM], rgba: [rgba[0], rgba[1], rgba[2], 0.4], visual: true }], mount: { kind: 'fixed' } };
}

/** A fixed flat plate (wipe target). */
export function plate(name: string, color: string, radiusM: number): ObjectSpec {
  return { ...base(name, color, 'cylinder', [2 * radiusM, 2 * radiusM, 0.012], 0.4), mount: { kind: 'fixed' }, friction: [0.6, 0.005, 0.0001] };
}

/** A sponge or a marker pen: tools the arm is meant to touch things with. */
export function tool(o: ObjectSpec): ObjectSpec {
  return { ...o, interactive: true };
}

/** Height of a drawer's handle bar above the drawer's centre. */
export const HANDLE_ABOVE_CENTRE_M = 0.03;

/**
 * A low cabinet facing -y (the robot) with drawers side by side, each on a slide joint that pulls out toward
 * -y. Returns the cabinet (fixed) followed by the drawers (sliding). Drawer features: 'handle'.
 */
export function drawerCabinet(names: string[], color: string): ObjectSpec[] {
  const n = names.length;
  const drawerW = 0.12;
  const width = n * drawerW + 0.04;
  const depth = 0.22;
  const height = 0.13;
  const t = 0.01;
  const cabinet: ObjectSpec = {
    ...base('cabinet', color, 'compound', [width, depth, height], 5),
    mount: { kind: 'fixed' },
    parts: [
      { shape: 'box', size: [width / 2, depth / 2, t / 2], pos: [0, 0, height / 2 - t / 2] },
      { shape: 'box', size: [width / 2, depth / 2, t / 2], pos: [0, 0, -height / 2 + t / 2] },
      { shape: 'box', size: [t / 2, depth / 2, height / 2], pos: [width / 2 - t / 2, 0, 0] },
      { shape: 'box', size: [t / 2, depth / 2, height / 2], pos: [-width / 2 + t / 2, 0, 0] },
      { shape: 'box', size: [width / 2, t / 2, height / 2], pos: [0, depth / 2 - t / 2, 0] },
    ],
  };
  const drawerH = height - 2 * t - 0.01;
  // The handle stands 7 cm proud of the front, so an open gripper (8 cm) fits around its bar.
  const out = 0.07;
  const w = drawerW - 0.01;
  const d = depth - 0.02;
  const dark: Rgba = [0.3, 0.3, 0.32, 1];
  // Parts are written in the drawer box's frame and shifted by out / 2: the drawer's frame is the centre of its
  // bounding box, handle included.
  const shift = (p: PartSpec): PartSpec => ({ ...p, pos: [p.pos![0], p.pos![1] + out / 2, p.pos![2]] });
  const barY = -d / 2 - out + 0.006;
  const postLen = out - 0.012;
  // The bar 3 cm above the drawer's centre: a hand holding it keeps its palm (which spans 9 cm toward the cabinet)
  // 8 mm over the cabinet's top; at 1 cm it pressed 6 mm into it, which a collision-checked motion refuses.
  const barZ = HANDLE_ABOVE_CENTRE_M;
  const drawers = names.map((name, i): ObjectSpec => ({
    ...base(name, color, 'compound', [w, d + out, drawerH], 0.6),
    mount: { kind: 'slide', parent: 'cabinet', pos: [-width / 2 + 0.02 + drawerW * (i + 0.5), -0.01 - out / 2, 0], axis: [0, -1, 0], rangeM: [0, 0.18], frictionLossN: 1.5, dampingNspm: 8 },
    parts: [
      { shape: 'box', size: [w / 2, 0.005, drawerH / 2], pos: [0, -d / 2 + 0.005, 0] },
      { shape: 'box', size: [w / 2, 0.004, drawerH / 2 - 0.02], pos: [0, d / 2 - 0.004, -0.02] },
      { shape: 'box', size: [w / 2, d / 2, 0.004], pos: [0, 0, -drawerH / 2 + 0.004] },
      { shape: 'box', size: [0.004, d / 2, drawerH / 2 - 0.02], pos: [w / 2 - 0.004, 0, -0.02] },
      { shape: 'box', size: [0.004, d / 2, drawerH / 2 - 0.02], pos: [-w / 2 + 0.004, 0, -0.02] },
      { shape: 'box', size: [0.035, 0.006, 0.0075], pos: [0, barY, barZ], rgba: dark },
      { shape: 'box', size: [0.005, postLen / 2, 0.006], pos: [0.03, -d / 2 - postLen / 2, barZ], rgba: dark },
      { shape: 'box', size: [0.005, postLen / 2, 0.006], pos: [-0.03, -d / 2 - postLen / 2, barZ], rgba: dark },
    ].map((p) => shift(p as PartSpec)),
    features: [{ name: 'handle', pos: [0, barY + out / 2, barZ], size: [0.07, 0.012, 0.015] }],
  }));
  return [cabinet, ...drawers];
}

/** A push button: a fixed housing and a spring-loaded cap that travels 15 mm down. Returns [housing, cap]. */
export function pushButton(name: string, color: string): ObjectSpec[] {
  const housing: ObjectSpec = { ...base(`${name} housing`, 'grey', 'box', [0.09, 0.09, 0.04], 1), mount: { kind: 'fixed' } };
  const capH = 0.02;
  const cap: ObjectSpec = {
    ...base(name, color, 'cylinder', [0.05, 0.05, capH], 0.03),
    interactive: true,
    mount: { kind: 'slide', parent: housing.name, pos: [0, 0, 0.02 + capH / 2], axis: [0, 0, -1], rangeM: [0, 0.015], stiffnessNpm: 400, dampingNspm: 3 },
  };
  return [housing, cap];
}

/** A low storage shelf (fixed): side panels, a back, a middle board and a top board to put things on. */
export function shelf(name: string, color: string): ObjectSpec {
  const w = 0.28;
  const d = 0.2;
  const h = 0.14;
  const t = 0.012;
  return {
    ...base(name, color, 'compound', [w, d, h], 5),
    mount: { kind: 'fixed' },
    parts: [
      { shape: 'box', size: [w / 2, d / 2, t / 2], pos: [0, 0, h / 2 - t / 2] },
      { shape: 'box', size: [w / 2 - t, d / 2, t / 2], pos: [0, 0, 0] },
      { shape: 'box', size: [t / 2, d / 2, h / 2 - t], pos: [w / 2 - t / 2, 0, -t] },
      { shape: 'box', size: [t / 2, d / 2, h / 2 - t], pos: [-w / 2 + t / 2, 0, -t] },
      { shape: 'box', size: [w / 2 - t, t / 2, h / 2 - t], pos: [0, d / 2 - t / 2, -t] },
    ],
    features: [{ name: 'top', pos: [0, 0, h / 2], size: [w, d, 0.001] }],
  };
}

/** An overhead lamp (fixed): a pole standing `poleOffset` from the shade's centre and a flat shade `heightM` up. */
export function overheadLamp(name: string, color: string, heightM: number, poleOffset: [number, number]): ObjectSpec {
  const shade = 0.16;
  return {
    ...base(name, color, 'compound', [shade, shade, heightM + 0.01], 2),
    mount: { kind: 'fixed' },
    // Frame at the bounding box centre (shade centre, half-way up).
    parts: [
      { shape: 'box', size: [shade / 2, shade / 2, 0.005], pos: [0, 0, heightM / 2] },
      { shape: 'cylinder', size: [0.01, heightM / 2], pos: [poleOffset[0], poleOffset[1], 0] },
    ],
  };
}

/** Two crossed, tilted slabs: an irregular paper lump that does not roll. `scale` multiplies its 5 x 5 x 4 cm. */
export function crumpledPaper(name: string, scale: Vec3 = [1, 1, 1]): ObjectSpec {
  const [kx, ky, kz] = scale;
  return {
    ...base(name, 'white', 'compound', [0.05 * kx, 0.05 * ky, 0.04 * kz], 0.02),
    parts: [
      { shape: 'box', size: [0.021 * kx, 0.019 * ky, 0.014 * kz], pos: [0, 0, -0.004 * kz] },
      { shape: 'box', size: [0.017 * kx, 0.017 * ky, 0.012 * kz], pos: [0.002 * kx, -0.002 * ky, 0.006 * kz], quat: [0.92, 0.1, 0.05, 0.37] },
    ],
  };
}

/** A plus sign of two crossed bars (`spanM` long, `barM` wide), like a shape-sorter piece; the frame is its centre. */
export function crossShape(name: string, color: string, spanM: number, barM: number, heightM: number, massKg: number): ObjectSpec {
  const [h, t, z] = [spanM / 2, barM / 2, heightM / 2];
  return { ...base(name, color, 'compound', [spanM, spanM, heightM], massKg), parts: [{ shape: 'box', size: [h, t, z] }, { shape: 'box', size: [t, h, z] }] };
}

/**
 * An L of two bars `barM` thick: the long one along local x (`lengthM`), the short foot at its +x end along +y
 * (`footM` from the long bar's outer edge). The frame is the bounding box's centre, which lies on the long bar's
 * inner edge, not in the middle of any material.
 */
export function lShape(name: string, color: string, lengthM: number, footM: number, barM: number, heightM: number, massKg: number): ObjectSpec {
  const [hx, hy, hz] = [lengthM / 2, footM / 2, heightM / 2];
  return {
    ...base(name, color, 'compound', [lengthM, footM, heightM], massKg),
    parts: [
      { shape: 'box', size: [hx, barM / 2, hz], pos: [0, -hy + barM / 2, 0] },
      { shape: 'box', size: [barM / 2, (footM - barM) / 2, hz], pos: [hx - barM / 2, barM / 2, 0] },
    ],
  };
}

/** A shallow sink basin standing on the table (fixed). */
export function sink(name: string, color: string): ObjectSpec {
  return container(name, color, [0.36, 0.26, 0.08], { fixed: true, wallM: 0.015 });
}
