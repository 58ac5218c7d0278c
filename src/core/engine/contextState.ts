// What the parts of an EpisodeContext share: the run's pieces handed over by runEpisode, the context's own counters
// (turn, call, action and snapshot ids), and the recording of motion and observations every part needs.
import type { PendingEvent, TraceEvent } from '../../protocol/trace.js';
import type { LimitValues } from '../architecture/types.js';
import type { Observation, ResetOutcome, SimSnapshot, TaskInfo } from '../sim/simulator.js';
import type { EpisodeCaps } from './caps.js';
import type { EpisodeController } from './controller.js';
import { perceived, rendered, type Metrics } from './emit.js';
import { simStep } from './endReasons.js';
import type { EpisodeDeps, EpisodeSpec } from './episode.js';
import type { LoadedPrompt } from './prompts.js';
import type { TrackStore } from './tracks.js';

export interface ContextParts {
  spec: EpisodeSpec;
  deps: EpisodeDeps;
  emit: (e: PendingEvent) => Promise<TraceEvent>;
  controller: EpisodeController;
  caps: EpisodeCaps;
  /** The user's cancel linked with the wall-clock cap (model calls wait on it). */
  runSignal: AbortSignal;
  prompts: Record<string, LoadedPrompt>;
  reset: ResetOutcome;
  task: TaskInfo;
  agent: string;
  agents: string[];
  metrics: Metrics;
  stamp: { agent?: string };
  limits: LimitValues;
  tracks: TrackStore;
  /** Perception mode's estimate (identity with ground truth). */
  perceive: (o: Observation) => Observation;
}

/** The context's own counters, read at the moment each event is written. */
export interface Live {
  turn: number;
  callCounter: number;
  actionCounter: number;
  snapshotCounter: number;
  snapshots: Map<string, { snap: SimSnapshot; label?: string; simTimeSecs: number }>;
}

export type ContextState = ContextParts & { live: Live };

/** Drains what the simulator recorded since the last drain into the trace and the track store. */
export async function drainTrajectory(s: ContextState): Promise<void> {
  const traj = await simStep('drain_trajectory', () => s.deps.sim.drainTrajectory());
  if (traj.samples.length === 0) return;
  s.tracks.addSamples(traj.samples);
  await s.emit({ type: 'trajectory', turn: s.live.turn, rateHz: traj.rateHz, samples: traj.samples });
}

export async function recordObservation(s: ContextState, observation: Observation, view?: 'agent' | 'shared'): Promise<void> {
  s.tracks.addObservation(s.deps.sim.simTimeSecs(), observation.state);
  await s.emit({
    type: 'observation',
    turn: s.live.turn,
    text: observation.text,
    state: observation.state,
    ...perceived(observation),
    ...rendered(s.spec.arch, observation, s.spec.variant.ablations),
    ...(observation.agent !== undefined ? { agent: observation.agent } : {}),
    ...(view ? { view } : {}),
  });
}

export function unknownAgent(s: ContextState, name: string): string | undefined {
  return s.agents.includes(name) ? undefined : `no agent '${name}' in this episode; agents: ${s.agents.join(', ')}`;
}
