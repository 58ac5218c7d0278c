// The EpisodeContext an architecture acts through: its counters and fields here, each capability in its own module
// (model calls in modelCalls.ts, code in codeExecution.ts, the simulator in simCalls.ts), all sharing one state.
import type { AgentAction, ChatMessage } from '../../protocol/trace.js';
import type { ActOptions, EpisodeContext, EpisodeOptions, RoleCallOptions } from '../architecture/types.js';
import { EmbeddingCache } from '../llm/embeddings.js';
import { executeCode } from './codeExecution.js';
import type { ContextParts, ContextState } from './contextState.js';
import { seen } from './emit.js';
import { callRole } from './modelCalls.js';
import { actJointly, checkSuccess, observe, restore, snapshot } from './simCalls.js';

export function makeContext(p: ContextParts): EpisodeContext {
  const s: ContextState = { ...p, live: { turn: 0, callCounter: 0, actionCounter: 0, snapshotCounter: 0, snapshots: new Map() } };
  const { spec, deps, controller, metrics, stamp, reset, live } = s;
  const arch = spec.arch;
  const options: EpisodeOptions = { ...spec.options, limits: p.limits };
  const ctx: EpisodeContext = {
    task: p.task,
    workspace: reset.workspace,
    api: reset.api,
    initial: reset.observation,
    options,
    limits: p.limits,
    agent: p.agent,
    agents: p.agents,
    humans: deps.human?.agents ?? [],
    ...(deps.embeddings ? { embeddings: new EmbeddingCache(deps.embeddings) } : {}),
    ablations: spec.variant.ablations,
    signal: controller.signal,
    get turn() {
      return live.turn;
    },
    get round() {
      return metrics.rounds;
    },
    get step() {
      return metrics.steps;
    },
    nextTurn() {
      live.turn += 1;
      metrics.turns = live.turn;
      return live.turn;
    },
    nextRound() {
      metrics.rounds += 1;
      return metrics.rounds;
    },
    nextStep() {
      metrics.steps += 1;
      return metrics.steps;
    },
    setAgent(name) {
      stamp.agent = name;
    },
    emit: s.emit,
    callRole: (role: string, variables: Record<string, unknown>, history: ChatMessage[], callOptions?: RoleCallOptions) => callRole(s, role, variables, history, callOptions),
    async parsed(role, callId, parsedTurn, r) {
      if (!r.ok) metrics.formatErrors++;
      await s.emit({ type: 'parsed_output', turn: parsedTurn, callId, role, ok: r.ok, kind: r.kind, value: r.ok ? r.value : undefined, error: r.ok ? undefined : r.error });
    },
    async say(speaker: string, content: string) {
      await s.emit({ type: 'chat_message', turn: live.turn, speaker, content });
    },
    executeCode: (role: string, code: string) => executeCode(s, role, code),
    async act(agentName, action, options) {
      const out = await ctx.actJointly([{ agent: agentName, name: action.name, args: action.args }], options);
      return out.results[0]!;
    },
    actJointly: (actions: AgentAction[], options?: ActOptions) => actJointly(s, actions, options),
    observe: (agentName?: string) => observe(s, agentName),
    render(observation, agentName) {
      return arch.renderObservation ? arch.renderObservation(seen(observation), agentName ?? observation.agent, spec.variant.ablations) : observation.text;
    },
    markTracks() {
      return deps.sim.simTimeSecs();
    },
    tracks(mark, objects) {
      return s.tracks.since(mark, objects);
    },
    toolTrack: (mark) => s.tracks.toolSince(mark),
    snapshot: (label?: string) => snapshot(s, label),
    restore: (id: string) => restore(s, id),
    checkSuccess: () => checkSuccess(s),
  };
  return ctx;
}
