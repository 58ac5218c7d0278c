// `waypoint archs`: every architecture with its roles, topologies, robot API, limits (the seed's names and
// defaults) and end reasons; `--json` for tools.
import { ENGINE_END_REASONS } from '../protocol/trace.js';
import { architectureManifests } from '../architectures/manifests.js';
import { describeType, ENGINE_LIMITS } from '../core/architecture/limits.js';
import { defineCommand } from './options.js';

export function formatArchitectures(): string {
  const out: string[] = [];
  for (const m of architectureManifests.list()) {
    out.push(`${m.id} — ${m.label}: ${m.description}`);
    out.push(`  paper: ${m.paper}`);
    out.push(`  robot API: ${m.api} · embedded simulator: ${m.simulator}`);
    out.push(`  roles: ${m.roles.map((r) => `${r.id} (${r.promptFile})`).join(', ')}`);
    out.push(`  topologies: ${Object.entries(m.topologies).map(([id, t]) => `${id}${id === m.defaultTopology ? ' [default]' : ''}: ${t.label}`).join('; ')}`);
    // What --variant accepts: the built-in variants (a topology plus ablations off), not the topology ids, which
    // differ from them for some architectures (RoCo's `central` topology is the `central_plan` variant).
    out.push('  variants (--variant; `default` runs the default topology with every ablation at its default):');
    for (const [id, v] of Object.entries(m.builtInVariants)) {
      const parts = [`topology ${v.agent ?? m.defaultTopology}`];
      if (v.off?.length) parts.push(`off: ${v.off.join(', ')}`);
      if (v.on?.length) parts.push(`on: ${v.on.join(', ')}`);
      if (v.agents !== undefined) parts.push(v.agents === 1 ? '1 agent' : `${v.agents} agents`);
      if (v.limits) parts.push(Object.entries(v.limits).map(([k, x]) => `${k}=${x}`).join(', '));
      out.push(`    ${id.padEnd(22)} ${v.description ?? ''} (${parts.join('; ')})`);
    }
    const code = Object.entries(m.codeAblations ?? {});
    if (code.length > 0) {
      out.push('  code-level ablations (switched by variants like prompt blocks; off unless a variant turns them on):');
      for (const [id, what] of code) out.push(`    ${id.padEnd(22)} ${what}`);
    }
    out.push('  limits (--limit name=value):');
    for (const l of m.limits) out.push(`    ${l.id.padEnd(22)} ${String(l.default).padEnd(6)} ${describeType(l)}; ${l.description}`);
    const reasons = Object.entries(m.endReasons);
    if (reasons.length > 0) {
      out.push('  end reasons of its own:');
      for (const [id, what] of reasons) out.push(`    ${id.padEnd(22)} ${what}`);
    }
    const metrics = Object.entries(m.metrics);
    if (metrics.length > 0) out.push(`  metrics: ${metrics.map(([id]) => id).join(', ')}`);
    out.push('');
  }
  out.push('Limits every architecture has (the engine\'s; --limit name=value like the others):');
  for (const l of ENGINE_LIMITS) out.push(`  ${l.id.padEnd(24)} ${String(l.default).padEnd(6)} ${describeType(l)}; ${l.description}`);
  out.push(`End reasons every architecture shares: ${ENGINE_END_REASONS.join(', ')}.`);
  return out.join('\n');
}

export function archsCommand(a: { json?: boolean }, out: NodeJS.WritableStream = process.stdout): number {
  if (a.json) out.write(JSON.stringify({ architectures: [...architectureManifests.list()], engineLimits: ENGINE_LIMITS, engineEndReasons: ENGINE_END_REASONS }, null, 2) + '\n');
  else out.write(formatArchitectures() + '\n');
  return 0;
}

export const archsCmd = defineCommand({
  name: 'archs',
  summary: 'list the architectures: roles, topologies, robot API, limits (by the seed papers\' names), end reasons',
  options: { json: { type: 'boolean', help: 'print them as JSON for tools' } },
  exitStatus: '0, 2 bad input.',
  run: async ({ values }) => archsCommand(values),
});
