// A role's turn: its prompt rendered (re-read after a pause), then the model's answer or, in a person's seat, a
// person's; both traced as role_call + model_response with the same fields.
import type { ChatMessage, PendingEvent } from '../../protocol/trace.js';
import type { RoleCallOptions, RoleCallOutcome } from '../architecture/types.js';
import { renderPrompt, PromptError } from '../prompt/render.js';
import type { ContextState } from './contextState.js';
import { EpisodeAbort, messageOf } from './endReasons.js';
import { withImages } from './vision.js';
import { currentPrompt, passedVariableProblems, type LoadedPrompt } from './prompts.js';

/** The role's prompt as it is now, rendered with this call's variables and history. */
async function renderRole(s: ContextState, role: string, variables: Record<string, unknown>, history: ChatMessage[]) {
  const { spec, deps, controller } = s;
  const lp = await currentPrompt(s.prompts, role, { io: deps.io, arch: spec.arch, epoch: controller.promptEpoch, turn: () => s.live.turn, emit: s.emit });
  // Prompts are checked against the manifest's declaration before the run: a loop that strays from it is a bug.
  const strays = passedVariableProblems(spec.arch, role, variables);
  if (strays.length > 0) throw new EpisodeAbort('engine_error', `${spec.arch.id} called its ${role} role with variables its manifest does not declare that way: ${strays.join('; ')}`);
  try {
    return { lp, renderedPrompt: await renderPrompt(lp.file, { variables, history, ablations: spec.variant.ablations }) };
  } catch (err) {
    if (err instanceof PromptError) throw new EpisodeAbort('prompt_error', err.detail, err.file, err.line);
    throw err;
  }
}

export async function callRole(s: ContextState, role: string, variables: Record<string, unknown>, history: ChatMessage[], callOptions: RoleCallOptions = {}): Promise<RoleCallOutcome> {
  const { lp, renderedPrompt } = await renderRole(s, role, variables, history);
  const callId = `c${++s.live.callCounter}`;
  const thisTurn = s.live.turn;
  const speaker = callOptions.agent ?? s.stamp.agent;
  if (speaker !== undefined && s.deps.human?.agents.includes(speaker)) {
    return humanTurn(s, { role, callId, thisTurn, speaker, messages: renderedPrompt.messages, variables, promptPath: lp.path, promptSha256: lp.sha256, view: callOptions.humanView });
  }
  const messages = withImages(renderedPrompt.messages, callOptions.images, s.spec.options.vision === true, renderedPrompt.requestIndex);
  return modelTurn(s, { role, callId, thisTurn, speaker, messages, variables, lp, callOptions });
}

/** One model call: role_call, the request (cancelled by the user or the wall-clock cap), model_response. */
async function modelTurn(
  s: ContextState,
  c: { role: string; callId: string; thisTurn: number; speaker: string | undefined; messages: ChatMessage[]; variables: Record<string, unknown>; lp: LoadedPrompt; callOptions: RoleCallOptions },
): Promise<RoleCallOutcome> {
  const { spec, deps, controller, metrics, emit } = s;
  const { role, callId, thisTurn, speaker, lp, callOptions } = c;
  const agentField = speaker !== undefined ? { agent: speaker } : {};
  const temperature = lp.file.config.temperature ?? spec.model.temperature;
  const maxTokens = spec.model.maxTokens ?? lp.file.config.maxOutputTokens;
  await emit({
    type: 'role_call',
    turn: thisTurn,
    callId,
    role,
    messages: c.messages,
    model: spec.model.model,
    params: { temperature, maxTokens, seed: spec.model.seed !== undefined && callOptions.sample ? spec.model.seed + callOptions.sample : spec.model.seed, ...(callOptions.sample ? { sample: callOptions.sample } : {}) },
    promptPath: lp.path,
    promptSha256: lp.sha256,
    variables: c.variables,
    ...agentField,
  });
  if (controller.signal.aborted) return { ok: false, callId, turn: thisTurn, message: 'cancelled' };
  metrics.modelCalls++;
  const result = await deps.model.complete(
    {
      model: spec.model.model,
      messages: c.messages,
      temperature,
      maxTokens,
      // A seeded model would answer every sample alike: sample k asks with seed + k.
      seed: spec.model.seed !== undefined && callOptions.sample ? spec.model.seed + callOptions.sample : spec.model.seed,
      repeatIndex: spec.model.repeatIndex,
      ...(callOptions.sample ? { sampleIndex: callOptions.sample } : {}),
      meta: { arch: spec.arch.id, role, callId, ...(speaker !== undefined ? { agent: speaker } : {}) },
    },
    { signal: s.runSignal },
  );
  if (result.ok) {
    if (result.cached) metrics.cachedCalls++;
    metrics.promptTokens += result.usage?.promptTokens ?? 0;
    metrics.completionTokens += result.usage?.completionTokens ?? 0;
  }
  await emit({
    type: 'model_response',
    turn: thisTurn,
    callId,
    role,
    ok: result.ok,
    text: result.ok ? result.text : undefined,
    error: result.ok ? undefined : result.error,
    usage: result.ok ? result.usage : undefined,
    latencyMs: result.latencyMs,
    cached: result.cached,
    attempts: result.attempts,
    ...(result.ok && result.human ? { human: true } : {}),
    ...agentField,
  });
  if (!result.ok) {
    if (result.error.kind === 'cancelled' || controller.signal.aborted) return { ok: false, callId, turn: thisTurn, message: 'cancelled' };
    const where = spec.model.baseUrl ? ` at ${spec.model.baseUrl}` : '';
    throw new EpisodeAbort('model_error', `model ${spec.model.model}${where} failed for role ${role} (${result.error.kind}): ${result.error.message}`);
  }
  return { ok: true, text: result.text, callId, turn: thisTurn, sent: c.messages, ...(result.usage ? { usage: result.usage } : {}), ...(result.human ? { human: true } : {}) };
}

/** A turn typed by a person in the agent's seat: traced like a model call, marked human, never sent to a model. */
async function humanTurn(s: ContextState, h: { role: string; callId: string; thisTurn: number; speaker: string; messages: ChatMessage[]; variables: Record<string, unknown>; promptPath: string; promptSha256: string; view?: string }): Promise<RoleCallOutcome> {
  const { deps, controller, caps, metrics, emit } = s;
  const common = { turn: h.thisTurn, callId: h.callId, role: h.role, agent: h.speaker };
  await emit({ type: 'role_call', ...common, messages: h.messages, model: 'human', params: {}, promptPath: h.promptPath, promptSha256: h.promptSha256, variables: h.variables, human: true });
  if (controller.signal.aborted) return { ok: false, callId: h.callId, turn: h.thisTurn, message: 'cancelled' };
  const t = deps.clock.nowMs();
  let text: string | null;
  // A person's thinking time is not the episode's running time.
  const release = caps.hold();
  try {
    text = await deps.human!.ask({ agent: h.speaker, role: h.role, turn: h.thisTurn, ...(metrics.rounds > 0 ? { round: metrics.rounds } : {}), view: h.view ?? h.messages.map((m) => m.content).join('\n\n'), messages: h.messages }, controller.signal);
  } catch (err) {
    throw new EpisodeAbort('engine_error', `the person in ${h.speaker}'s seat could not answer: ${messageOf(err)}`);
  } finally {
    release();
  }
  if (text === null || controller.signal.aborted) {
    await emit({ type: 'model_response', ...common, ok: false, error: { kind: 'cancelled', message: `the person in ${h.speaker}'s seat gave up` }, latencyMs: deps.clock.nowMs() - t, cached: false, attempts: 1, human: true } as PendingEvent);
    controller.cancel();
    return { ok: false, callId: h.callId, turn: h.thisTurn, message: 'cancelled' };
  }
  metrics.humanTurns++;
  await emit({ type: 'model_response', ...common, ok: true, text, latencyMs: deps.clock.nowMs() - t, cached: false, attempts: 1, human: true } as PendingEvent);
  return { ok: true, text, callId: h.callId, turn: h.thisTurn, human: true };
}
