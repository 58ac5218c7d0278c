// The e2e run's summary: timings, per-phase results, UI steps, figures for the benchmark table, leftover processes.
import { readFileSync, readdirSync } from 'node:fs';
import type { MochaOutcome } from './mochaPhase.js';
import type { StepResult } from './ui/scenarios.js';
import type { Shots } from './ui/workbench.js';

export interface Summary {
  timings: Record<string, number>;
  mocha: MochaOutcome[];
  ui: { steps: StepResult[]; figures: Record<string, unknown>; shots: Shots } | undefined;
  activationBench?: { runs: number; coldMs: number[]; medianColdMs: number; medianCpuMs?: number; medianInsideActivateMs?: number };
  leftovers: string[];
  warnings: string[];
  errors: string[];
}

/** Every live process below `pid` (children, grandchildren, ...), from /proc. */
export function descendants(pid: number): { pid: number; cmd: string }[] {
  const parent = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (rest[0] !== 'Z') parent.set(Number(name), Number(rest[1]));
    } catch {
      // ended meanwhile
    }
  }
  const out: { pid: number; cmd: string }[] = [];
  const below = (p: number) => {
    for (const [child, pp] of parent) {
      if (pp !== p) continue;
      let cmd = '';
      try {
        cmd = readFileSync(`/proc/${child}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
      } catch {
        continue;
      }
      out.push({ pid: child, cmd });
      below(child);
    }
  };
  below(pid);
  return out;
}

const secs = (ms: number | undefined) => (ms === undefined ? '—' : `${(ms / 1000).toFixed(1)} s`);

export function formatSummary(s: Summary): { text: string; failed: boolean } {
  const lines: string[] = ['', '== e2e summary =='];
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  const t = s.timings;
  lines.push(`timings: install ${secs(t.installMs)} · build ${secs(t.buildMs)} · bundle suite ${secs(t.bundleSuiteMs)} · browser ${secs(t.browserLaunchMs)} · code-server start ${secs(t.serverStartMs)} · UI ${secs(t.uiMs)} · restricted ${secs(t.restrictedMs)} · stop ${secs(t.stopMs)} · total ${secs(t.totalMs)}`);
  for (const m of s.mocha) {
    const r = m.results?.results ?? [];
    const p = r.filter((x) => x.state === 'passed').length;
    // A phase that crashed, timed out or exited non-zero without a failed test still counts as one failure.
    const phaseBroken = m.error !== undefined || (m.exitCode ?? 1) !== 0;
    // A pending (skipped) test fails the run too: the suite has no skips, so one would hide a test that did not run.
    const k = r.filter((x) => x.state === 'pending').length;
    const f = r.filter((x) => x.state === 'failed').length + k + (phaseBroken && r.every((x) => x.state !== 'failed') ? 1 : 0);
    passed += p;
    failed += f;
    lines.push(`mocha (${m.phase}): ${p} passing, ${f} failing${k ? ` (${k} of them pending: the suite has no skips)` : ''} · exit code ${m.exitCode ?? '—'} · ${secs(m.wallMs)} page load to exit`);
    for (const x of r.filter((y) => y.state !== 'passed')) lines.push(`  ✖ ${x.title}${x.state === 'pending' ? ' (pending: did not run)' : ''}${x.error ? `: ${x.error.split('\n')[0]}` : ''}`);
    if (m.error) lines.push(`  ✖ ${m.error}`);
    const notes = m.results?.notes ?? {};
    if (notes.activation) lines.push(`  activation (extension host): ${JSON.stringify(notes.activation)}`);
    if (notes.liveRun) lines.push(`  live run: ${JSON.stringify(notes.liveRun)}`);
    if (notes.restrictedRunLiveTest) lines.push(`  Restricted Mode: waypoint.runLiveTest ${notes.restrictedRunLiveTest}`);
  }
  if (s.ui) {
    const st = s.ui.steps;
    const p = st.filter((x) => x.status === 'passed').length;
    const f = st.filter((x) => x.status === 'failed').length;
    // Skipped only after a step it needs failed, which already fails the run.
    const k = st.filter((x) => x.status === 'skipped').length;
    passed += p;
    failed += f;
    skipped += k;
    lines.push(`UI scenarios: ${p} passed, ${f} failed, ${k} skipped (after a failed step they need)`);
    for (const x of st) lines.push(`  ${{ passed: '✔', failed: '✖', skipped: '-' }[x.status]} ${x.name} (${secs(x.ms)})${x.detail ? `: ${x.detail}` : ''}`);
    lines.push(`  screenshots: ${s.ui.shots.taken.map((x) => x.file.replace(/^.*\/test\/output\//, 'test/output/')).join(', ') || 'none'}`);
    const fg = s.ui.figures;
    lines.push(`  figures: workbench ready ${secs(fg.workbenchReadyMs as number)}, Quick Open → first CodeLens ${secs(fg.openToFirstLensMs as number)}, activation (Show Activation Time) ${fg.activationMsUi ?? '—'} ms, live run ${secs(fg.liveRunMs as number)}`);
  }
  if (s.activationBench) {
    const b = s.activationBench;
    lines.push(`activation benchmark: median ${b.medianColdMs.toFixed(1)} ms cold ext.activate() over ${b.runs} fresh extension hosts; ${b.medianInsideActivateMs?.toFixed(1) ?? '?'} ms inside activate()`);
    passed++;
  }
  for (const w of s.warnings) lines.push(`warning: ${w}`);
  for (const e of s.errors) {
    lines.push(`error: ${e}`);
    failed++;
  }
  if (s.leftovers.length > 0) {
    lines.push(`leftover processes (${s.leftovers.length}):`, ...s.leftovers.map((l) => `  ${l}`));
    failed++;
  } else lines.push('leftover processes: none (process groups, run folder and browser profile checked)');
  lines.push(`e2e: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  return { text: lines.join('\n'), failed: failed > 0 };
}
