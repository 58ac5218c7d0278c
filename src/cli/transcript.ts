// The CLI's readable transcript: one block per trace event (turn, role, message, code, result), printed as the
// events arrive. It reads only trace events, so `waypoint show` prints a finished run the same way.
import { isAbsolute, relative } from 'node:path';
import { architectureManifests } from '../architectures/manifests.js';
import { endReasonText } from '../core/trace/endReasons.js';
import { imagePartCount } from '../core/trace/projections/runSummary.js';
import type { TraceEvent } from '../protocol/trace.js';
import { formatArchMetrics, formatStructuredEvent } from './transcriptSteps.js';

export interface TranscriptOptions {
  color: boolean;
  /** Print full messages and observations (default: trimmed). */
  verbose: boolean;
  /** The run's architecture (episode_start's `arch`): its own end reasons are told in its words. */
  arch?: string;
  /** Carried across one run's events: the closing line says when vision was on and no request carried an image. */
  vision?: VisionTally;
}

export interface VisionTally { on: boolean; images: number }
export const visionTally = (): VisionTally => ({ on: false, images: 0 });

/** Counts what the tally needs from one event (formatEvent does it; a quiet transcript that skips events calls it). */
export function noteVision(t: VisionTally, e: TraceEvent): void {
  if (e.type === 'episode_start') t.on = e.options['vision'] === true;
  else if (e.type === 'role_call') t.images += imagePartCount(e.messages);
}

/** The closing line's account of what ended the episode; the claim flag alone for a reason nobody describes. */
export function endedBy(e: Extract<TraceEvent, { type: 'episode_end' }>, arch: string | undefined): string {
  return endReasonText(e.reason, arch ? architectureManifests.find(arch)?.endReasons : undefined) ?? `agent ${e.agentClaimedDone ? 'claimed' : 'did not claim'} completion`;
}

const ROLE_COLOR: Record<string, number> = { supervisor: 35, planner: 34, coder: 32, agent: 36, Executor: 33, executor: 33 };

function paint(on: boolean, code: number, s: string): string {
  return on ? `\x1b[${code}m${s}\x1b[0m` : s;
}

function indent(text: string, prefix = '    '): string {
  return text
    .replace(/\s+$/, '')
    .split('\n')
    .map((l) => prefix + l)
    .join('\n');
}

function trim(text: string, maxLines: number): string {
  const lines = text.replace(/\s+$/, '').split('\n');
  if (lines.length <= maxLines) return lines.join('\n');
  return [...lines.slice(0, maxLines), `… (${lines.length - maxLines} more lines)`].join('\n');
}

/** An argument as the agent wrote it, cut to 200 characters; never throws (traces may hold anything). */
function formatArg(x: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(x) ?? String(x);
  } catch {
    text = Array.isArray(x) ? '[…]' : typeof x === 'object' && x !== null ? '{…}' : String(x);
  }
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

/** "coder.prompt, planner.prompt from prompts/malmm; sa.prompt from /…/prompts/malmm": grouped by folder. */
function promptSources(prompts: readonly { role: string; path: string }[]): string {
  const byDir = new Map<string, string[]>();
  for (const p of prompts) {
    const cut = p.path.lastIndexOf('/');
    const dir = cut < 0 ? '.' : p.path.slice(0, cut);
    byDir.set(dir, [...(byDir.get(dir) ?? []), p.path.slice(cut + 1)]);
  }
  return [...byDir].map(([dir, files]) => `${files.join(', ')} from ${displayPath(dir)}`).join('; ');
}

function displayPath(p: string): string {
  const rel = relative(process.cwd(), p);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : p;
}

/**
 * Simulated time: all of it, the timelines that restores left included (an Action Contextualization execution
 * restores the start, so the clock at the end shows only the last one), and the final state's part when it differs.
 * Traces from before simTotalSecs have only the clock at the end.
 */
function simulated(m: { simTimeSecs: number; simTotalSecs?: number }): string {
  const total = m.simTotalSecs ?? m.simTimeSecs;
  const last = Math.abs(total - m.simTimeSecs) >= 0.05 ? `, ${m.simTimeSecs.toFixed(1)} s of it leading to the final state` : '';
  return `${total.toFixed(1)} s simulated${last}`;
}

export function formatEvent(e: TraceEvent, o: TranscriptOptions): string | undefined {
  const c = (code: number, s: string) => paint(o.color, code, s);
  const turn = (t: number) => c(2, `[${e.round !== undefined ? `round ${e.round} · ` : ''}turn ${String(t).padStart(3)}]`);
  switch (e.type) {
    case 'episode_start':
      if (o.vision) noteVision(o.vision, e);
      return [
        c(1, `Waypoint run ${e.runId}`),
        `  architecture ${e.arch} (${e.agentVariant}) · variant ${e.variant} · task ${e.task} · seed ${e.seed}`,
        // Labels of OpenAI-compatible models already name their endpoint.
        `  model ${e.model.label}${e.model.baseUrl && !e.model.label.includes(e.model.baseUrl) ? ` via ${e.model.baseUrl}` : ''}`,
        // The simulator and how it is set up (the embedded tabletop names its grasp model, MALMM's motion, the detector
        // and the robot: what can happen).
        `  simulator ${e.simulator.name}${e.simulator.version ? ` · ${e.simulator.version}` : ''}`,
        e.prompts.length ? `  prompts ${promptSources(e.prompts)}` : undefined,
        e.taskDescription ? `  instruction: ${e.taskDescription}` : undefined,
        // MALMM's own line; an architecture with other limits (trajgen has a maxTurns too) lists its limits.
        e.options.maxTurns !== undefined && e.options.maxConsecutiveErrors !== undefined
          ? `  code namespace ${e.options.persistNamespace ? 'persists between blocks' : 'is fresh for every block (as in MALMM)'} · limit ${e.options.codeTimeoutSecs} s per block · ${e.ablations?.['loop.consecutive_error_stop'] === true ? `stop after ${e.options.maxConsecutiveErrors} consecutive error${e.options.maxConsecutiveErrors === 1 ? '' : 's'} or ` : 'stop on errors only by the prompt\'s rule, or at '}${e.options.maxTurns} turn${e.options.maxTurns === 1 ? '' : 's'}`
          : e.limits && Object.keys(e.limits).length > 0
            ? `  limits: ${Object.entries(e.limits).map(([k, v]) => `${k}=${String(v)}`).join(' · ')}`
            : undefined,
        e.options['vision'] === true ? `  vision on: the simulator's camera frames go to the model as image parts` : undefined,
        e.agents && e.agents.length > 1 ? `  robots: ${e.agents.join(', ')}${Array.isArray(e['humans']) && e['humans'].length > 0 ? ` (typed by a person: ${(e['humans'] as string[]).join(', ')})` : ''}` : undefined,
      ]
        .filter((x) => x !== undefined)
        .join('\n');
    case 'parsed_output':
      if (e.kind === 'route' && e.ok) return `${turn(e.turn)} ${c(ROLE_COLOR.supervisor, 'Supervisor')} → ${String(e.value)}`;
      if (!e.ok) return `${turn(e.turn)} ${c(31, `format error (${e.role}): ${e.error}`)}`;
      return formatStructuredEvent(e, c, turn);
    case 'role_call':
      if (o.vision) noteVision(o.vision, e);
      return undefined;
    case 'model_response':
      if (!e.ok) return `${turn(e.turn)} ${c(31, `model error (${e.role}, ${e.error?.kind}): ${e.error?.message}`)}`;
      return undefined;
    case 'chat_message': {
      // The opening message is the task statement; in SA and MA no Supervisor exists to speak it.
      if (e.speaker === 'Supervisor' && e.turn === 0) return `${turn(0)} the chat opens with the task and the initial state`;
      const color = ROLE_COLOR[e.speaker.toLowerCase()] ?? 37;
      const body = o.verbose ? e.content : trim(e.content, e.speaker === 'Executor' ? 3 : 14);
      return `${turn(e.turn)} ${c(color, e.speaker)}\n${indent(body)}`;
    }
    case 'code_execution': {
      const calls = e.apiCalls.map((a) => `${a.fn}(${a.args.map(formatArg).join(', ')})${a.ok ? '' : ' ✗'}`).join('; ');
      const status = e.ok ? c(32, 'exit 0') : c(31, `exit ${e.exitCode} ${e.error ? `${e.error.type}: ${e.error.message}${e.error.line ? ` (line ${e.error.line})` : ''}` : ''}`);
      return `${turn(e.turn)} ${c(ROLE_COLOR.Executor, 'Executor')} ran ${e.role}'s block: ${status} · ${e.durationMs.toFixed(0)} ms${calls ? `\n    calls: ${calls}` : ''}`;
    }
    case 'check':
      if (e.name === 'task_success') return `${c(1, 'success check')}: ${e.ok ? c(32, 'PASS') : c(31, 'FAIL')} · ${e.message}`;
      // A plan check that passed is noise in a transcript; a failed one is what the agents hear next.
      if (e.name.startsWith('plan: ') && e.ok && !o.verbose) return undefined;
      return `${turn(e.turn)} ${c(e.ok ? 32 : 33, `${e.name}`)}: ${e.message}`;
    case 'error':
      return c(31, `error (${e.kind}): ${e.message}${e.file ? ` [${e.file}${e.line ? `:${e.line}` : ''}]` : ''}`);
    case 'action_result': {
      // Steps outside dialog rounds (LLaMAR's joint steps): one line per robot.
      if (e.round === undefined && e.step !== undefined) return formatStructuredEvent(e, c, turn);
      // A RoCo plan: one failure text shared by every robot (a rejected plan) is shown once.
      const errors = [...new Set(e.results.filter((r) => !r.ok).map((r) => r.error ?? ''))];
      const lines = (errors.length === 1 && e.results.every((r) => !r.ok)) || errors.length === 0 ? [] : e.results.map((r) => `    ${r.agent} ${r.name}: ${r.ok ? c(32, 'ok') : c(31, `failed: ${trim(r.error ?? '', o.verbose ? 40 : 6)}`)}`);
      const out = e.results.find((r) => r.ok && r.output)?.output;
      const head = e.results.every((r) => r.ok) ? 'executed' : lines.length === 0 ? `not executed: ${trim(errors[0]!, o.verbose ? 40 : 1)}` : 'executed in part';
      return [`${turn(e.turn)} ${c(36, 'plan')} ${head}`, ...(out ? [indent(trim(out, o.verbose ? 40 : 8))] : []), ...lines].join('\n');
    }
    case 'episode_end': {
      const m = e.metrics;
      const verdict = e.success ? c(32, 'SUCCESS') : c(31, 'FAILURE');
      return [
        `${verdict} · ${e.reason}${e.message ? ` (${e.message})` : ''} · ${endedBy(e, o.arch)}`,
        `  ${m.turns} turns · ${m.modelCalls} model calls (${m.cachedCalls} cached) · ${m.promptTokens + m.completionTokens} tokens · ${m.codeBlocks} code blocks, ${m.codeErrors} failed · ${m.formatErrors} format errors · ${simulated(m)} · ${(m.durationMs / 1000).toFixed(2)} s wall`,
        formatArchMetrics(e.archMetrics),
        o.vision?.on && o.vision.images === 0 && m.modelCalls > 0
          ? c(33, `  vision was on but no request carried an image: the simulator returned no camera frames (the embedded simulators have none; the AI2-THOR adapter does), or ${o.arch ?? 'the architecture'} sends none`)
          : undefined,
      ]
        .filter((x) => x !== undefined)
        .join('\n');
    }
    default:
      return formatStructuredEvent(e, c, turn);
  }
}
