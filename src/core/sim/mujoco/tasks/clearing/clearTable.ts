// Table clearing in the spirit of Action Contextualization (Sec. IV): put each listed object away into (or
// onto) its location. Three scenes share this builder: bin (paper balls, one wedged between low objects:
// needs a small obstacle_clearance), sink (a full glass whose tilt and fall speed are tracked: it must never
// spill), shelf (an apple under an overhead lamp: only a side grasp reaches it).
import type { ObjectSpec } from '../../scene/sceneSpec.js';
import { objectAtLocation } from '../../apis/actctx/checks.js';
import { atRest, find, held, tiltOf, verdict } from '../checks.js';
import { LayoutBuilder } from '../layout.js';
import { iiwaScene, SINGLE_ARM_WORKSPACE, singleArmScene } from '../tabletopCommon.js';
import type { LocationSpec, TaskDefinition, TaskMonitor } from '../taskDefinition.js';

/** A full glass spills above this tilt, or when it moves faster than SPILL_SPEED_MPS (it fell or was thrown). */
export const SPILL_TILT_RAD = 0.35;
export const SPILL_SPEED_MPS = 0.6;

export interface ClearingSpec {
  id: string;
  key: string;
  description: string;
  instruction: string;
  objects: ObjectSpec[];
  locations: LocationSpec[];
  /** Object name -> location name, or the locations any of which will do. */
  goals: Record<string, string | readonly string[]>;
  /** Objects that must end upright. */
  upright?: string[];
  /** A glass with liquid: tracked for spills. */
  fullGlass?: string;
  /** Which part of the paper the task reproduces (shown in listings). */
  imitates?: string;
  layout(l: LayoutBuilder): void;
  /**
   * The scene with Action Contextualization's own robot (the KUKA iiwa with an Allegro hand, tabletopCommon.ts):
   * the same labels, its objects sized and laid out as the authors' scene (--robot iiwa).
   */
  iiwa?: { objects: ObjectSpec[]; layout(l: LayoutBuilder): void };
}

function spillMonitor(glass: string): TaskMonitor {
  let spilled: string | null = null;
  let maxTilt = 0;
  let prevZ: number | null = null;
  return {
    sample(view) {
      const g = find(view, glass);
      const tilt = tiltOf(g);
      maxTilt = Math.max(maxTilt, tilt);
      // Vertical speed from 50 Hz samples (the glass's own speed includes the carrying motion, which is fine).
      const vz = prevZ === null ? 0 : Math.abs(g.pos[2] - prevZ) / 0.02;
      prevZ = g.pos[2];
      if (spilled) return;
      if (tilt > SPILL_TILT_RAD) spilled = `tilted ${tilt.toFixed(2)} rad`;
      else if (vz > SPILL_SPEED_MPS) spilled = `moved at ${vz.toFixed(2)} m/s vertically (it fell)`;
    },
    state: () => ({ spilled, maxTiltRad: Math.round(maxTilt * 1e4) / 1e4, prevZ }),
    load(s) {
      const v = s as { spilled?: string | null; maxTiltRad?: number; prevZ?: number | null };
      spilled = v.spilled ?? null;
      maxTilt = v.maxTiltRad ?? 0;
      prevZ = v.prevZ ?? null;
    },
  };
}

function iiwaRobot(key: string, iiwa: NonNullable<ClearingSpec['iiwa']>): NonNullable<TaskDefinition['robots']>['iiwa'] {
  return {
    scene: iiwaScene(key, iiwa.objects),
    layout(rng) {
      const l = new LayoutBuilder(rng);
      iiwa.layout(l);
      return l.placements(iiwa.objects);
    },
  };
}

export function clearingTask(spec: ClearingSpec): TaskDefinition {
  const glass = spec.fullGlass;
  return {
    info: { id: spec.id, description: spec.description, instruction: spec.instruction, suite: 'table-clearing', arms: 1, imitates: spec.imitates ?? 'Action Contextualization: table clearing' },
    workspace: SINGLE_ARM_WORKSPACE,
    defaultApi: 'actctx',
    apis: ['actctx', 'malmm', 'lmtg'],
    locations: spec.locations,
    scene: singleArmScene(spec.key, spec.objects),
    ...(spec.iiwa ? { robots: { iiwa: iiwaRobot(spec.key, spec.iiwa) } } : {}),
    layout(rng) {
      const l = new LayoutBuilder(rng);
      spec.layout(l);
      return l.placements(spec.objects);
    },
    ...(glass ? { monitor: () => spillMonitor(glass) } : {}),
    check(view) {
      const problems: string[] = [];
      if (held(view).length > 0) problems.push(`${held(view).join(', ')} still grasped`);
      for (const [name, goal] of Object.entries(spec.goals)) {
        const names = typeof goal === 'string' ? [goal] : [...goal];
        const o = find(view, name);
        const at = names.find((n) => objectAtLocation(o, find(view, n), spec.locations.find((l) => l.name === n)!));
        if (!at) problems.push(`${name} is not ${names.map((n) => `${spec.locations.find((l) => l.name === n)!.kind === 'container' ? 'in' : 'on'} the ${n}`).join(' or ')}`);
        else if (!atRest(o)) problems.push(`${name} is still moving`);
        if (spec.upright?.includes(name) && tiltOf(o) > 0.2) problems.push(`${name} is not upright`);
      }
      for (const o of spec.objects) {
        if (spec.goals[o.name] || spec.locations.some((l) => l.name === o.name) || o.mount?.kind === 'fixed') continue;
        for (const loc of spec.locations) if (objectAtLocation(find(view, o.name), find(view, loc.name), loc)) problems.push(`${o.name} should not be in the ${loc.name}`);
      }
      const spill = glass ? (view.monitor as { spilled?: string | null } | undefined)?.spilled : null;
      if (glass && spill) problems.push(`the ${glass} spilled: ${spill}`);
      return verdict(spec.id, problems, `put away: ${Object.entries(spec.goals).map(([o, l]) => `${o} -> ${typeof l === 'string' ? l : l.join(' | ')}`).join(', ')}`);
    },
  };
}
