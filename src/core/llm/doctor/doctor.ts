// `waypoint doctor`: probe an endpoint (probes.ts), judge each architecture against it (verdicts.ts) and say it in
// lines a person reads top to bottom: the probes as they finish, then the architectures, then the command to run.
import { redactKey } from '../openai.js';
import { PROBE_IDS, PROBE_LABELS, probeEndpoint, type Findings, type Mark, type ProbeLine, type ProbeOptions } from './probes.js';
import { archVerdicts, flagAsSetting, runAdvice, type AdviceContext, type ArchNeeds, type ArchVerdict, type RunAdvice } from './verdicts.js';

/** Exit status when chat completions do not work (unreachable, refused, wrong path, unknown model, ...). */
export const EXIT_CHAT_FAILS = 3;

export interface DoctorOptions extends ProbeOptions {
  archs: readonly ArchNeeds[];
  /** The --model value as given (`openai:<name>`, or `reference`), echoed in advice. */
  modelArg: string;
}

export interface DoctorReport {
  findings: Findings;
  architectures: ArchVerdict[];
  advice?: RunAdvice;
  exitCode: 0 | typeof EXIT_CHAT_FAILS;
}

export async function runDoctor(o: DoctorOptions): Promise<DoctorReport> {
  const findings = await probeEndpoint(o);
  const audience = o.audience ?? 'cli';
  const ctx: AdviceContext = { modelArg: o.modelArg, baseUrl: findings.baseUrl, apiKeyEnv: o.apiKeyEnv, keyGiven: o.apiKey !== undefined, azureDeploymentUrl: o.azureApiVersion !== undefined, audience };
  const architectures = findings.fatal ? [] : archVerdicts(findings, o.archs, ctx);
  return { findings, architectures, ...(findings.chatOk && audience !== 'none' ? { advice: runAdvice(findings, ctx) } : {}), exitCode: findings.chatOk ? 0 : EXIT_CHAT_FAILS };
}

const MARKS: Record<Mark, string> = { ok: '✓', fail: '✗', unknown: '?' };
const LABEL_WIDTH = Math.max(...PROBE_IDS.map((id) => PROBE_LABELS[id].length));

export function formatHeader(modelArg: string, baseUrl: string): string {
  return `Checking ${modelArg} at ${baseUrl.replace(/\/+$/, '')}`;
}

export function formatProbeLine(p: ProbeLine): string {
  return `  ${MARKS[p.mark]} ${PROBE_LABELS[p.id].padEnd(LABEL_WIDTH)}  ${p.detail}`;
}

/** What follows the probe lines: the one fatal line, or the architectures and the command to run. */
export function formatConclusion(r: DoctorReport, apiKey?: string): string {
  const f = r.findings;
  const lines: string[] = [];
  if (f.fatal) return redactKey(`✗ ${f.fatal}`, apiKey);
  if (!f.chatOk) {
    lines.push('', `Chat completions do not work at ${f.baseUrl}: no architecture can run against it (exit ${EXIT_CHAT_FAILS}).`);
    return redactKey(lines.join('\n'), apiKey);
  }
  lines.push('', f.scripted ? `Architectures with ${f.provider.label}:` : `Architectures with ${f.model} on ${f.provider.label}:`);
  const w = Math.max(...r.architectures.map((a) => a.id.length));
  for (const a of r.architectures) {
    lines.push(`  ${MARKS[a.mark]} ${a.id.padEnd(w)}  ${a.reasons.length ? a.reasons[0] : 'nothing in the way'}${a.flags.length ? `  [${a.flags.join(' ')}]` : ''}`);
    for (const reason of a.reasons.slice(1)) lines.push(`    ${' '.repeat(w)}  ${reason}`);
  }
  if (r.advice?.settings) {
    lines.push('', 'Settings:', ...r.advice.settings.map((s) => `  ${s}`));
    for (const a of r.architectures.filter((x) => x.flags.length > 0)) lines.push(`  ${`(${a.id})`.padEnd(w + 2)} ${a.flags.map(flagAsSetting).join(', ')}`);
    for (const n of r.advice.notes) lines.push(`  ${n}`);
  } else if (r.advice) {
    lines.push('', 'Run with:', `  ${r.advice.command}`);
    const per = r.architectures.filter((a) => a.flags.length > 0);
    for (const a of per) lines.push(`  ${`(${a.id})`.padEnd(w + 2)} add ${a.flags.join(' ')}`);
    for (const n of r.advice.notes) lines.push(`  ${n}`);
    if (r.advice.sweep) lines.push('In a sweep file:', ...r.advice.sweep.split('\n').map((l) => `  ${l}`));
  }
  return redactKey(lines.join('\n'), apiKey);
}

/** The whole report as text (the CLI prints the header and probe lines as they come, then the conclusion). */
export function formatReport(r: DoctorReport, modelArg: string, apiKey?: string): string {
  // An endpoint that fails before any probe settles gets its one line only.
  if (r.findings.fatal && r.findings.probes.length === 0) return formatConclusion(r, apiKey);
  return [formatHeader(modelArg, r.findings.baseUrl), ...r.findings.probes.map(formatProbeLine), formatConclusion(r, apiKey)].join('\n');
}
