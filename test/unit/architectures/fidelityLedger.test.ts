// Each architecture's fidelity ledger (issue 24) names every switch and limit a user can turn: an ablation id or a
// limit added without a ledger line fails here, so the ledger cannot fall behind the manifest.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { architectureManifests } from '../../../src/architectures/manifests.js';
import type { ArchitectureManifest } from '../../../src/core/architecture/types.js';
import { listAblationIds } from '../../../src/core/prompt/render.js';

/** Where each built-in architecture keeps its ledger (one place each; its README links there). */
const LEDGER_DOC: Record<string, string> = {
  malmm: 'docs/malmm.md',
  roco: 'docs/roco.md',
  actctx: 'docs/actctx.md',
  llamar: 'src/architectures/llamar/README.md',
  trajgen: 'docs/trajgen.md',
};

/** The text under the `## Fidelity ledger` heading, up to the next heading of the same level. */
function ledgerSection(markdown: string): string | undefined {
  const start = markdown.search(/^## Fidelity ledger\b/m);
  if (start < 0) return undefined;
  const rest = markdown.slice(start + 3);
  const end = rest.search(/^## /m);
  return end < 0 ? rest : rest.slice(0, end);
}

/** Every ablation id a variant may switch: the prompts' blocks, the ids read in code, and those variants list. */
function ablationIds(m: ArchitectureManifest): string[] {
  const dir = join('src', 'architectures', m.id, 'prompts');
  const ids = new Set<string>();
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.prompt')).sort()) for (const id of listAblationIds(readFileSync(join(dir, f), 'utf8'))) ids.add(id);
  for (const id of Object.keys(m.codeAblations ?? {})) ids.add(id);
  for (const v of Object.values(m.builtInVariants)) for (const id of [...(v.on ?? []), ...(v.off ?? [])]) ids.add(id);
  return [...ids].sort();
}

/** Ids the ledger leaves out: each must appear in backticks in the ledger section. */
function missingFromLedger(section: string, ids: readonly string[]): string[] {
  return ids.filter((id) => !section.includes('`' + id + '`'));
}

test('every architecture has a fidelity ledger naming each of its ablation ids and limits, linked from its README', () => {
  assert.deepEqual(Object.keys(LEDGER_DOC).sort(), architectureManifests.ids().sort(), 'a ledger place for every built-in architecture');
  for (const m of architectureManifests.list()) {
    const doc = LEDGER_DOC[m.id]!;
    const section = ledgerSection(readFileSync(doc, 'utf8'));
    assert.ok(section, `${doc} has a "## Fidelity ledger" section`);
    // Every row gives a verdict in the ledger's words.
    const rows = section.split('\n').filter((l) => /^\| /.test(l) && !/^\|[\s-|]+$/.test(l) && !/^\| element\b/i.test(l));
    assert.ok(rows.length >= 10, `${m.id}: the ledger has rows (${rows.length})`);
    for (const row of rows) assert.match(row, /\b(faithful|differs|missing|added)\b/, `${m.id}: ledger row without a verdict: ${row}`);
    assert.deepEqual(missingFromLedger(section, ablationIds(m)), [], `${m.id}: ablation ids missing from the ledger in ${doc}`);
    assert.deepEqual(missingFromLedger(section, m.limits.map((l) => l.id)), [], `${m.id}: limits missing from the ledger in ${doc}`);
    const readme = join('src', 'architectures', m.id, 'README.md');
    if (readme !== doc) {
      const text = readFileSync(readme, 'utf8');
      assert.ok(text.includes('`' + doc + '`') && /fidelity\s+ledger/i.test(text), `${readme} names ${doc} as its fidelity ledger`);
    }
  }
});

test('the check fails when an id has no ledger line', () => {
  const section = ledgerSection('# x\n## Fidelity ledger\n| a | faithful | `maxTurns` |\n## Next\n`maxRounds`\n')!;
  assert.deepEqual(missingFromLedger(section, ['maxTurns', 'maxRounds']), ['maxRounds']);
  assert.equal(ledgerSection('# x\n## Other\n'), undefined);
});
