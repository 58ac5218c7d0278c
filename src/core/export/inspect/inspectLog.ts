// Runs as an Inspect AI eval log (the plain JSON format, `.json`), so they open in `inspect view` and Inspect's
// VS Code extension beside the user's other evals. Built from trace events only. Mapping:
//   episode              -> sample (id: seed, or seed/side for a paired sweep; input: the task instruction;
//                           messages: the shared conversation, or, for architectures without one (LLaMAR's
//                           separately called roles), each role's prompt and answer and the actions' results;
//                           output: the last answer)
//   simulator's success  -> the sample's score `success` ('C' / 'I', Inspect's correct / incorrect), explained
//                           by the end reason; accuracy and stderr over the samples in the results
//   role call            -> model event (exact input messages, the answer or its error, usage, latency, cache)
//   each agent's turn    -> a span (type 'agent') named after the agent (RoCo's Alice) or else the role; code
//                           runs in an 'executor' span
//   code block           -> tool event 'python' (code in, exit status and stdout out)
//   robot API call       -> tool event named after the function (positional args under `args`)
//   structured action    -> one tool event per agent's part, in that agent's span
//   check, engine error, snapshot, restore -> info events
// api_call events are not repeated: code_execution.apiCalls holds the same calls with their results.
// Timestamps are wall clock: the episode's startedAt plus each event's tMs. Unknown event types are skipped.
import type { ChatMessage, EventOf, TraceEvent } from '../../../protocol/trace.js';

/** The Inspect log format version this writes (EvalLog.version) and the schema it was checked against. */
export const INSPECT_LOG_VERSION = 2;

export interface InspectEpisode {
  events: readonly TraceEvent[];
  /** Sample id (default: `seed-<seed>`). */
  id?: string;
  /** Extra sample metadata (e.g. which side of a sweep). */
  metadata?: Record<string, unknown>;
}

export interface InspectLogOptions {
  /** Waypoint's version for eval.packages. */
  waypointVersion: string;
  /** Task name shown by Inspect (default: waypoint/<arch>/<task> of the first episode). */
  taskName?: string;
  /** Task arguments (e.g. the sweep's ablation). */
  taskArgs?: Record<string, unknown>;
  /** Eval status (default: 'success' when every episode ended, else 'started'). */
  status?: 'started' | 'success' | 'cancelled' | 'error';
  metadata?: Record<string, unknown>;
}

type Json = Record<string, unknown>;

/** A short stable id (Inspect uses random ones; ours derive from the run ids so an export is reproducible). */
function stableId(text: string): string {
  let h1 = 0x811c9dc5, h2 = 0x01000193;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 16777619) >>> 0;
    h2 = Math.imul(h2 ^ c, 2246822519) >>> 0;
  }
  return (h1.toString(36) + h2.toString(36)).padStart(14, '0').slice(0, 22);
}

function iso(originMs: number, tMs: number): string {
  return new Date(originMs + tMs).toISOString();
}

/** Inspect model names are provider/model; the reference policies say what they are in the name too. */
function modelName(start: EventOf<'episode_start'> | undefined): string {
  if (!start) return 'waypoint/unknown';
  const m = start.model;
  const name = m.model.includes('/') ? m.model : `${m.provider}/${m.model}`;
  return /not an LLM/i.test(m.label) ? `${name} (scripted, not an LLM)` : name;
}

function chat(m: ChatMessage): Json {
  if (m.role === 'assistant') return { role: 'assistant', content: m.content, source: 'generate', ...(m.name ? { metadata: { name: m.name } } : {}) };
  return { role: m.role, content: m.content, ...(m.name ? { metadata: { name: m.name } } : {}) };
}

function usage(u: { promptTokens: number; completionTokens: number } | undefined): Json {
  const i = u?.promptTokens ?? 0, o = u?.completionTokens ?? 0;
  return { input_tokens: i, output_tokens: o, total_tokens: i + o };
}

function addUsage(into: Record<string, Json>, key: string, u: Json): void {
  const a = (into[key] ??= { input_tokens: 0, output_tokens: 0, total_tokens: 0 }) as Record<string, number>;
  a.input_tokens! += u.input_tokens as number;
  a.output_tokens! += u.output_tokens as number;
  a.total_tokens! += u.total_tokens as number;
}

function sample(ep: InspectEpisode, index: number): { sample: Json; modelUsage: Record<string, Json>; roleUsage: Record<string, Json>; ended: boolean; success: boolean | null } {
  const events = ep.events;
  const start = events.find((e): e is EventOf<'episode_start'> => e.type === 'episode_start');
  const end = [...events].reverse().find((e): e is EventOf<'episode_end'> => e.type === 'episode_end');
  const originMs = start ? Date.parse(start.startedAt) || 0 : 0;
  const model = modelName(start);
  const calls = new Map<string, EventOf<'role_call'>>();
  const actions = new Map<string, EventOf<'action'>>();
  const out: Json[] = [];
  const modelUsage: Record<string, Json> = {};
  const roleUsage: Record<string, Json> = {};
  const messages: Json[] = [];
  let span: { id: string; name: string } | null = null;
  let spanCount = 0;
  const base = (e: TraceEvent) => ({ timestamp: iso(originMs, e.tMs), working_start: e.tMs / 1000, ...(span ? { span_id: span.id } : {}) });
  const closeSpan = (e: TraceEvent) => {
    if (!span) return;
    const s = span;
    span = null;
    out.push({ event: 'span_end', id: s.id, ...base(e) });
  };
  const openSpan = (e: TraceEvent, name: string) => {
    if (span?.name === name) return;
    closeSpan(e);
    const id = `span-${++spanCount}`;
    out.push({ event: 'span_begin', id, name, type: 'agent', ...base(e) });
    span = { id, name };
  };

  // Without a shared conversation, the sample's messages are the role calls themselves.
  const conversation = events.some((e) => e.type === 'chat_message');
  const input = start?.taskDescription ?? '';
  out.push({ event: 'sample_init', ...base(events[0] ?? ({ tMs: 0 } as TraceEvent)), sample: { id: ep.id ?? `seed-${start?.seed ?? index}`, input, target: '' }, state: {} });
  messages.push({ role: 'user', content: input, source: 'input' });
  for (const e of events) {
    switch (e.type) {
      case 'role_call': {
        calls.set(e.callId, e);
        openSpan(e, e.agent ?? e.role);
        const prompt = [...e.messages].reverse().find((m) => m.role === 'user');
        if (!conversation && prompt) messages.push({ role: 'user', content: prompt.content, source: 'input', metadata: { speaker: e.agent ?? e.role, turn: e.turn } });
        break;
      }
      case 'model_response': {
        const call = calls.get(e.callId);
        openSpan(e, call?.agent ?? e.agent ?? e.role);
        const u = usage(e.usage);
        addUsage(modelUsage, model, u);
        addUsage(roleUsage, e.role, u);
        const text = e.ok ? (e.text ?? '') : '';
        const startMs = call?.tMs ?? e.tMs;
        out.push({
          event: 'model',
          ...base(call ?? e),
          model,
          role: e.role,
          input: (call?.messages ?? []).map(chat),
          tools: [],
          tool_choice: 'none',
          config: { ...(call?.params.temperature !== undefined ? { temperature: call.params.temperature } : {}), ...(call?.params.maxTokens !== undefined ? { max_tokens: call.params.maxTokens } : {}), ...(call?.params.seed !== undefined ? { seed: call.params.seed } : {}) },
          output: { model, choices: e.ok ? [{ message: { role: 'assistant', content: text, source: 'generate', model }, stop_reason: 'stop' }] : [], completion: text, usage: u, time: e.latencyMs / 1000, ...(e.ok ? {} : { error: `${e.error?.kind ?? 'error'}: ${e.error?.message ?? ''}` }) },
          ...(e.ok ? {} : { error: `${e.error?.kind ?? 'error'}: ${e.error?.message ?? 'model call failed'}` }),
          ...(e.cached ? { cache: 'read' } : {}),
          retries: Math.max(0, e.attempts - 1),
          completed: iso(originMs, e.tMs),
          working_time: (e.tMs - startMs) / 1000,
          metadata: { turn: e.turn, call_id: e.callId, prompt: call?.promptPath ?? '' },
        });
        if (!conversation && e.ok) messages.push({ role: 'assistant', content: text, source: 'generate', model, metadata: { speaker: call?.agent ?? e.agent ?? e.role, turn: e.turn } });
        break;
      }
      case 'chat_message':
        messages.push(/executor|environment|system/i.test(e.speaker) ? { role: 'user', content: e.content, source: 'input', metadata: { speaker: e.speaker, turn: e.turn } } : { role: 'assistant', content: e.content, source: 'generate', model, metadata: { speaker: e.speaker, turn: e.turn } });
        break;
      case 'code_execution': {
        openSpan(e, 'executor');
        const startMs = Math.max(0, e.tMs - e.durationMs);
        out.push({
          event: 'tool', ...base(e), timestamp: iso(originMs, startMs), working_start: startMs / 1000, type: 'function', id: `turn-${e.turn}-code`, function: e.language,
          arguments: { code: e.code }, result: `exit ${e.exitCode}${e.stdout ? `\n${e.stdout}` : ''}`, events: [],
          ...(e.ok ? {} : { error: { type: 'unknown', message: `${e.error?.type ?? 'Error'}: ${e.error?.message ?? `exit code ${e.exitCode}`}` } }),
          completed: iso(originMs, e.tMs), working_time: e.durationMs / 1000, agent: e.role, metadata: { turn: e.turn, role: e.role },
        });
        e.apiCalls.forEach((c, i) => {
          out.push({
            event: 'tool', ...base(e), type: 'function', id: `turn-${e.turn}-call-${i}`, function: c.fn, arguments: { args: c.args as unknown },
            result: c.value === undefined || c.value === null ? (c.ok ? 'ok' : '') : c.value, events: [],
            ...(c.ok ? {} : { error: { type: 'unknown', message: c.error ?? 'failed' } }),
            agent: e.role, metadata: { turn: e.turn, ...(c.metrics ? { motion: c.metrics } : {}) },
          });
        });
        break;
      }
      case 'action':
        actions.set(e.actionId, e);
        break;
      case 'action_result': {
        const asked = actions.get(e.actionId)?.actions ?? [];
        e.results.forEach((res, i) => {
          openSpan(e, res.agent);
          const args = asked.find((a, j) => a.agent === res.agent && (j === i || a.name === res.name))?.args ?? [];
          out.push({
            event: 'tool', ...base(e), type: 'function', id: `${e.actionId}-${i}`, function: res.name, arguments: { args: args as unknown },
            result: res.value === undefined || res.value === null ? (res.output ?? (res.ok ? 'ok' : '')) : res.value, events: [],
            ...(res.ok ? {} : { error: { type: 'unknown', message: res.error ?? 'failed' } }),
            agent: res.agent, metadata: { turn: e.turn, action_id: e.actionId, ...(res.metrics ? { motion: res.metrics } : {}) },
          });
        });
        if (!conversation && e.results.length) {
          const lines = e.results.map((r) => {
            const said = r.ok ? r.output : (r.error ?? r.output);
            return `${r.agent}: ${r.name} ${r.ok ? 'succeeded' : 'failed'}${said ? ` (${said})` : ''}`;
          });
          messages.push({ role: 'user', content: lines.join('\n'), source: 'input', metadata: { speaker: 'environment', turn: e.turn } });
        }
        break;
      }
      case 'snapshot':
      case 'restore':
        out.push({ event: 'info', ...base(e), source: `simulator/${e.type}`, data: { id: e.id, ...(e.label ? { label: e.label } : {}), ...(e.simTimeSecs !== undefined ? { sim_time_s: e.simTimeSecs } : {}) } });
        break;
      case 'check':
        out.push({ event: 'info', ...base(e), source: `check/${e.name}`, data: { turn: e.turn, name: e.name, ok: e.ok, message: e.message } });
        break;
      case 'error':
        out.push({ event: 'info', ...base(e), source: 'waypoint/error', data: { kind: e.kind, message: e.message, ...(e.file ? { file: e.file } : {}), ...(e.line ? { line: e.line } : {}) } });
        break;
      default:
        break; // episode_start, scene, parsed_output, observation, trajectory, episode_end: metadata or not a transcript event
    }
  }
  const last = events[events.length - 1];
  if (last) closeSpan(last);
  const score = end
    ? { value: end.success ? 'C' : 'I', answer: end.agentClaimedDone ? 'agent said done' : 'agent did not say done', explanation: `${end.reason}${end.message ? `: ${end.message}` : ''}`, history: [], metadata: { reason: end.reason, agent_claimed_done: end.agentClaimedDone } }
    : null;
  if (score && last) out.push({ event: 'score', ...base(last), score, scorer: 'simulator_success', intermediate: false });
  const lastAssistant = [...messages].reverse().find((m) => m.role === 'assistant');
  const endMs = end?.tMs ?? last?.tMs ?? 0;
  return {
    sample: {
      id: ep.id ?? `seed-${start?.seed ?? index}`,
      epoch: 1,
      input,
      target: '',
      messages,
      output: { model, choices: lastAssistant ? [{ message: lastAssistant, stop_reason: 'stop' }] : [], completion: (lastAssistant?.content as string | undefined) ?? '' },
      scores: score ? { success: score } : {},
      metadata: {
        run_id: start?.runId ?? '', arch: start?.arch ?? '', agent_variant: start?.agentVariant ?? '', variant: start?.variant ?? '', task: start?.task ?? '', seed: start?.seed ?? null,
        ablations: start?.ablations ?? {}, model_label: start?.model.label ?? '', simulator: start ? `${start.simulator.name}${start.simulator.version ? ` ${start.simulator.version}` : ''}` : '',
        end_reason: end?.reason ?? 'interrupted (no episode_end in the trace)', episode_metrics: end?.metrics ?? null, ...ep.metadata,
      },
      store: {},
      events: out,
      model_usage: modelUsage,
      role_usage: roleUsage,
      attachments: {},
      started_at: iso(originMs, 0),
      completed_at: iso(originMs, endMs),
      total_time: endMs / 1000,
      working_time: endMs / 1000,
      uuid: stableId(`${start?.runId ?? index}/sample`),
      ...(end ? {} : { error: { message: 'the trace ends without episode_end: the run was interrupted', traceback: '', traceback_ansi: '' } }),
    },
    modelUsage,
    roleUsage,
    ended: Boolean(end),
    success: end ? end.success : null,
  };
}

export function toInspectLog(episodes: readonly InspectEpisode[], options: InspectLogOptions): Json {
  if (episodes.length === 0) throw new Error('Inspect export: no episodes to export');
  const built = episodes.map((ep, i) => sample(ep, i));
  const starts = episodes.map((ep) => ep.events.find((e): e is EventOf<'episode_start'> => e.type === 'episode_start'));
  const first = starts.find(Boolean);
  const modelUsage: Record<string, Json> = {};
  const roleUsage: Record<string, Json> = {};
  for (const b of built) {
    for (const [k, u] of Object.entries(b.modelUsage)) addUsage(modelUsage, k, u);
    for (const [k, u] of Object.entries(b.roleUsage)) addUsage(roleUsage, k, u);
  }
  const scored = built.filter((b) => b.success !== null);
  const n = scored.length;
  const acc = n ? scored.filter((b) => b.success).length / n : 0;
  const stderr = n > 1 ? Math.sqrt((acc * (1 - acc)) / (n - 1)) : 0;
  const times = built.flatMap((b) => [b.sample.started_at as string, b.sample.completed_at as string]).sort();
  const runIds = starts.map((s, i) => s?.runId ?? `episode-${i}`).join(',');
  const params = first?.model;
  return {
    version: INSPECT_LOG_VERSION,
    status: options.status ?? (built.every((b) => b.ended) ? 'success' : 'started'),
    eval: {
      eval_id: stableId(`${runIds}/eval`),
      run_id: stableId(`${runIds}/run`),
      created: first?.startedAt ?? times[0] ?? new Date(0).toISOString(),
      task: options.taskName ?? `waypoint/${first?.arch ?? 'run'}/${first?.task ?? 'task'}`,
      task_id: stableId(`${runIds}/task`),
      task_version: 0,
      task_attribs: {},
      task_args: { arch: first?.arch, agent_variant: first?.agentVariant, variant: first?.variant, ...options.taskArgs },
      task_args_passed: {},
      solver: `waypoint/${first?.arch ?? 'agent'}`,
      dataset: { name: first?.task ?? null, samples: episodes.length, sample_ids: built.map((b) => b.sample.id as string), shuffled: false },
      model: modelName(first),
      model_generate_config: { ...(params?.temperature !== undefined ? { temperature: params.temperature } : {}), ...(params?.maxTokens !== undefined ? { max_tokens: params.maxTokens } : {}), ...(params?.seed !== undefined ? { seed: params.seed } : {}) },
      model_args: {},
      ...(params?.baseUrl ? { model_base_url: params.baseUrl } : {}),
      config: {},
      packages: { waypoint: options.waypointVersion },
      scorers: [{ name: 'simulator_success', options: {}, metrics: [{ name: 'accuracy', options: {} }, { name: 'stderr', options: {} }], metadata: {} }],
      metadata: { exporter: 'waypoint', model_label: first?.model.label ?? '', simulator: first?.simulator.name ?? '', ...options.metadata },
    },
    plan: { name: 'plan', steps: [{ solver: `waypoint/${first?.arch ?? 'agent'}`, params: { agent_variant: first?.agentVariant ?? '', variant: first?.variant ?? '', ablations: first?.ablations ?? {} }, params_passed: {} }], config: {} },
    results: {
      total_samples: episodes.length,
      completed_samples: built.filter((b) => b.ended).length,
      scores: [{ name: 'success', scorer: 'simulator_success', params: {}, scored_samples: n, unscored_samples: episodes.length - n, metrics: { accuracy: { name: 'accuracy', value: acc, params: {} }, stderr: { name: 'stderr', value: stderr, params: {} } } }],
    },
    stats: { started_at: times[0] ?? '', completed_at: times[times.length - 1] ?? '', model_usage: modelUsage, role_usage: roleUsage, connection_limit_history: [] },
    invalidated: false,
    tags: ['waypoint'],
    metadata: {},
    samples: built.map((b) => b.sample),
  };
}
