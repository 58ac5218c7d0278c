// The failure inspector's optional model judge: a model reads a failed episode's transcript and proposes labels
// from the taxonomy (failureLabels.ts). Its answers are proposals, kept apart from the automatic labels and the hand
// edits: judge.json in the sweep folder, every label with source 'judge' and the model that proposed it, and the
// views mark them as a model's proposal. Nothing here changes a record, labels.json or the matrix's counts.
import { join } from 'node:path';
import type { ChatMessage } from '../../protocol/trace.js';
import type { HostIO } from '../host.js';
import type { ModelClient } from '../llm/client.js';
import { transcriptTurns } from '../trace/projections/sideBySide.js';
import { readTrace } from '../trace/reader.js';
import { FAILURE_LABELS, type FailureLabel } from './failureLabels.js';
import type { EpisodeRecord } from './record.js';

export const JUDGE_FILE = 'judge.json';
export const JUDGE_ROLE = { arch: 'sweep', role: 'judge' } as const;
const MAX_TRANSCRIPT = 12_000;

export interface JudgeProposal {
  labels: FailureLabel[];
  /** The model's answer when it could not be read as labels (kept so a person can see why). */
  unreadable?: string;
  at: string;
}

export interface JudgeFile {
  /** Who proposed: the model's label (for the reference model: scripted, not an LLM). */
  model: string;
  note: string;
  proposals: Record<string, JudgeProposal>;
}

export const JUDGE_NOTE = "labels proposed by a model, not checked by a person; the automatic labels and hand edits are unchanged";

/** The judge's messages for one failed episode: the taxonomy, the outcome and the transcript (latest turns kept). */
export function judgeMessages(r: EpisodeRecord, transcript: string): ChatMessage[] {
  const taxonomy = Object.entries(FAILURE_LABELS)
    .map(([id, what]) => `- ${id}: ${what}`)
    .join('\n');
  const system = [
    'You review failed episodes of an LLM-driven robot agent and say why each failed.',
    'Pick one or more labels from this list only (use the id before the colon):',
    taxonomy,
    'For each label give the turn number where the failure began and one line of evidence quoted or paraphrased from the transcript.',
    'Answer with JSON only, in this shape: {"labels": [{"label": "<id>", "turn": <number>, "evidence": "<one line>"}]}',
  ].join('\n');
  const text = transcript.length > MAX_TRANSCRIPT ? `… (earlier turns omitted)\n${transcript.slice(-MAX_TRANSCRIPT)}` : transcript;
  const user = `Task: ${r.task}\nVariant: ${r.cell}\nSeed: ${r.seed}\nEnded: ${r.reason}${r.message ? ` (${r.message})` : ''} after ${r.turns} turns.\n\nTranscript (turn number, then what happened):\n${text}`;
  return [
    { role: 'system', content: system },
    { role: 'user', content: user },
  ];
}

/** The judge's answer as labels: JSON (possibly inside a code fence); ids outside the taxonomy are dropped. */
export function parseJudgeAnswer(text: string): FailureLabel[] | undefined {
  const body = /```(?:json)?\s*([^]*?)```/.exec(text)?.[1] ?? text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1);
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  const list = (parsed as { labels?: unknown }).labels;
  if (!Array.isArray(list)) return undefined;
  const out: FailureLabel[] = [];
  for (const x of list) {
    const l = x as { label?: unknown; turn?: unknown; evidence?: unknown };
    if (typeof l.label !== 'string' || !(l.label in FAILURE_LABELS)) continue;
    out.push({ label: l.label, ...(typeof l.turn === 'number' && Number.isInteger(l.turn) && l.turn >= 0 ? { turn: l.turn } : {}), evidence: typeof l.evidence === 'string' ? l.evidence.slice(0, 300) : '', source: 'judge' });
  }
  return out;
}

export async function readJudgeFile(io: HostIO, sweepDir: string): Promise<JudgeFile | undefined> {
  const path = join(sweepDir, JUDGE_FILE);
  if (!(await io.exists(path))) return undefined;
  try {
    return JSON.parse(await io.readText(path)) as JudgeFile;
  } catch (err) {
    throw new Error(`${path}: not valid JSON (${err instanceof Error ? err.message : String(err)})`);
  }
}

export interface JudgeOptions {
  io: HostIO;
  sweepDir: string;
  workspace: string;
  records: EpisodeRecord[];
  client: ModelClient;
  /** The model name sent in requests, and the label stored with the proposals. */
  model: string;
  modelLabel: string;
  /** Judge these keys only (default: every failed episode without a proposal yet). */
  keys?: string[];
  /** Judge again episodes that already have a proposal. */
  again?: boolean;
  isoNow(): string;
  onEpisode?(key: string, proposal: JudgeProposal): void;
}

/** Asks the judge about failed episodes, one at a time, and writes judge.json after each answer (resumable). */
export async function judgeSweep(o: JudgeOptions): Promise<JudgeFile> {
  const prior = await readJudgeFile(o.io, o.sweepDir);
  const file: JudgeFile = { model: o.modelLabel, note: JUDGE_NOTE, proposals: prior && prior.model === o.modelLabel ? prior.proposals : {} };
  const wanted = o.keys ? new Set(o.keys) : undefined;
  for (const r of o.records) {
    if (r.success || (wanted && !wanted.has(r.key)) || (!o.again && file.proposals[r.key])) continue;
    if (!r.tracePath) continue;
    const { events } = readTrace(await o.io.readText(join(o.workspace, r.tracePath)));
    const transcript = transcriptTurns(events)
      .map((t) => `[turn ${t.turn}] ${t.role}\n${t.text}`)
      .join('\n\n');
    const res = await o.client.complete({ model: o.model, meta: { ...JUDGE_ROLE }, messages: judgeMessages(r, transcript), temperature: 0 });
    const at = o.isoNow();
    let proposal: JudgeProposal;
    if (!res.ok) proposal = { labels: [], unreadable: `model error: ${res.error.message}`, at };
    else {
      const labels = parseJudgeAnswer(res.text);
      proposal = labels ? { labels, at } : { labels: [], unreadable: res.text.slice(0, 500), at };
    }
    file.proposals[r.key] = proposal;
    await o.io.writeText(join(o.sweepDir, JUDGE_FILE), JSON.stringify(file, null, 2) + '\n');
    o.onEpisode?.(r.key, proposal);
  }
  return file;
}
