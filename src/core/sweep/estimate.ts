// What a sweep would cost before it runs (`waypoint sweep <file> --plan`): the episodes per cell and an estimate of
// model calls and tokens. The estimate is the architecture's typical episode (its manifest's modelNeeds, measured
// with the reference model), scaled by a limit the calls grow with (planRuns); a language model usually takes more
// turns than the scripted policy, so the limits that cap an episode are printed beside it. Nothing is run.
import type { ArchitectureManifest } from '../architecture/types.js';
import type { PlannedSweep } from './spec.js';

export interface CellEstimate {
  task: string;
  cell: string;
  episodes: number;
}

export interface SweepEstimate {
  episodes: number;
  cells: CellEstimate[];
  /** Undefined when the architecture declares no typical episode. */
  calls?: number;
  tokens?: number;
  /** How the numbers were estimated, in words. */
  basis: string;
  /** The limits that bound one episode (resolved from the sweep's and the architecture's). */
  caps: Record<string, number | boolean | string>;
}

export function estimateSweep(plan: PlannedSweep, arch: ArchitectureManifest): SweepEstimate {
  const count = new Map<string, CellEstimate>();
  for (const e of plan.episodes) {
    const k = `${e.task}\u0000${e.cell}`;
    const c = count.get(k) ?? count.set(k, { task: e.task, cell: e.cell, episodes: 0 }).get(k)!;
    c.episodes++;
  }
  const caps: SweepEstimate['caps'] = Object.fromEntries(arch.limits.map((l) => [l.id, (plan.spec.limits?.[l.id] as number | boolean | string | undefined) ?? l.default]));
  const declared = arch.modelNeeds?.typicalEpisode;
  // A switch that changes the protocol has its own typical episode (the first one on, in the manifest's order).
  const switched = Object.entries(declared?.whenOn ?? {}).find(([limit]) => caps[limit] === true);
  const typical = declared && switched ? { ...declared, ...switched[1] } : declared;
  const episodes = plan.episodes.length;
  if (!typical) return { episodes, cells: [...count.values()], basis: `${arch.id} declares no typical episode (modelNeeds.typicalEpisode), so calls and tokens are not estimated`, caps };
  let scale = 1;
  let scaled = '';
  if (typical.scalesWith) {
    const spec = arch.limits.find((l) => l.id === typical.scalesWith);
    const value = Number(caps[typical.scalesWith] ?? spec?.default ?? 1);
    const base = Number(spec?.default ?? 1) || 1;
    scale = value / base;
    if (scale !== 1) scaled = `, times ${scale} for ${typical.scalesWith}=${value} (measured at ${base})`;
  }
  return {
    episodes,
    cells: [...count.values()],
    calls: Math.round(episodes * typical.calls * scale),
    tokens: Math.round(episodes * typical.tokens * scale),
    basis: `${episodes} episodes x a typical ${arch.id} episode of ${typical.calls} calls and ${typical.tokens} tokens (the reference model on ${typical.measuredOn}${switched ? `, the episode with ${switched[0]} on` : ''}${scaled}); a language model usually takes more turns than the scripted policy, up to the limits below`,
    caps,
  };
}

/** The plan as text: episodes per cell (rows tasks, columns the sweep's columns), then the estimate and how it was made. */
export function estimateText(plan: PlannedSweep, est: SweepEstimate, o: { fixture: boolean; modelName: string }): string {
  const cols = plan.cells.map((c) => c.name);
  const lines = [`sweep ${plan.name}: ${plan.spec.arch}, ${plan.spec.tasks.length} tasks x ${cols.length} columns x ${plan.seeds.length} seeds x ${plan.spec.repeats} repeats = ${est.episodes} episodes (plan only: nothing was run, no model was called)`, ''];
  lines.push(`| task | ${cols.join(' | ')} |`, `|---|${cols.map(() => '---').join('|')}|`);
  const n = new Map(est.cells.map((c) => [`${c.task}\u0000${c.cell}`, c.episodes]));
  for (const t of plan.spec.tasks) lines.push(`| ${t} | ${cols.map((c) => n.get(`${t}\u0000${c}`) ?? 0).join(' | ')} |`);
  lines.push('');
  const fmt = (x: number) => x.toLocaleString('en-US');
  if (est.calls !== undefined) lines.push(`estimated model calls: ~${fmt(est.calls)}`, `estimated tokens: ~${fmt(est.tokens!)}`);
  lines.push(`how estimated: ${est.basis}`);
  lines.push(`limits per episode: ${Object.entries(est.caps).map(([k, v]) => `${k}=${v}`).join(', ')}`);
  lines.push(`model: ${o.modelName}${o.fixture ? ' (scripted reference model: its rates are a fixture, not a reproduction of the paper)' : ''}`);
  if (plan.spec.paper) {
    const cells = Object.values(plan.spec.paper.cells).reduce((a, b) => a + Object.keys(b).length, 0);
    lines.push(`paper: ${plan.spec.paper.citation}; ${cells} cells with the paper's number`);
  }
  return lines.join('\n') + '\n';
}
