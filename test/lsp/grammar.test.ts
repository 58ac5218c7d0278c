// The TextMate grammar and language configuration for .prompt: valid JSON, every regex compiles as a JS regex
// (after mapping the Oniguruma-only anchors \A and \G), includes resolve, and key patterns match what they should.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from './lspClient.js';

interface Rule {
  match?: string;
  begin?: string;
  end?: string;
  include?: string;
  patterns?: Rule[];
  name?: string;
  contentName?: string;
  captures?: Record<string, Rule>;
  beginCaptures?: Record<string, Rule>;
  endCaptures?: Record<string, Rule>;
}
interface Grammar extends Rule {
  scopeName: string;
  repository: Record<string, Rule>;
}

const grammar = JSON.parse(readFileSync(join(REPO, 'media/prompt.tmLanguage.json'), 'utf8')) as Grammar;
const config = JSON.parse(readFileSync(join(REPO, 'media/prompt.language-configuration.json'), 'utf8')) as {
  comments: { blockComment: [string, string] };
  brackets: [string, string][];
  autoClosingPairs: { open: string; close: string }[];
  folding: { markers: { start: string; end: string } };
  wordPattern: string;
};

/** Oniguruma -> JS for the anchors used: \A (start of file) ~ ^, \G (end of the previous match) ~ nothing. */
const js = (src: string) => new RegExp(src.replace(/\\A/g, '^').replace(/\\G/g, ''));

function* rules(r: Rule, path: string): Generator<[string, Rule]> {
  yield [path, r];
  for (const [i, p] of (r.patterns ?? []).entries()) yield* rules(p, `${path}/patterns[${i}]`);
  for (const key of ['captures', 'beginCaptures', 'endCaptures'] as const) for (const [k, c] of Object.entries(r[key] ?? {})) yield* rules(c, `${path}/${key}[${k}]`);
}
const all = (): [string, Rule][] => [...rules(grammar, '$'), ...Object.entries(grammar.repository).flatMap(([k, r]) => [...rules(r, `#${k}`)])];
const rx = (key: string, which: 'match' | 'begin' = 'match', i?: number) => {
  const r = grammar.repository[key];
  return js((i === undefined ? r : r.patterns![i])[which]!);
};

test('grammar JSON: scope name, every regex compiles, every include resolves', () => {
  assert.equal(grammar.scopeName, 'source.waypoint-prompt');
  const failures: string[] = [];
  let count = 0;
  for (const [path, r] of all()) {
    for (const k of ['match', 'begin', 'end'] as const) {
      if (r[k] === undefined) continue;
      count++;
      try {
        js(r[k]!);
      } catch (e) {
        failures.push(`${path}.${k}: ${(e as Error).message}`);
      }
    }
    if (r.include?.startsWith('#') && !grammar.repository[r.include.slice(1)]) failures.push(`${path}: missing ${r.include}`);
  }
  assert.deepEqual(failures, []);
  assert.ok(count > 40, `${count} regexes checked`);
});

test('front matter embeds YAML and is anchored at the start of the file', () => {
  const fm = grammar.repository.frontMatter;
  assert.equal(fm.contentName, 'meta.embedded.block.yaml');
  assert.ok(fm.patterns!.some((p) => p.include === 'source.yaml'));
  assert.ok(fm.begin!.startsWith('\\A'));
  assert.ok(js(fm.begin!).test('---'));
});

test('ablation blocks get their own scopes, distinct from other blocks', () => {
  const open = rx('ablationOpen', 'begin');
  assert.ok(open.test('{{#ablation "coder.step_by_step" label="x"}}'));
  assert.ok(!open.test('{{#ablations}}'));
  assert.match(grammar.repository.ablationOpen.name!, /^meta\.tag\.ablation\.begin/);
  assert.ok(rx('ablationClose').test('{{/ablation}}'));
  assert.equal(grammar.repository.ablationOpen.patterns![0].captures!['1'].name, 'constant.other.ablation-id.waypoint-prompt');
  const body = grammar.repository.body.patterns!.map((p) => p.include);
  assert.ok(body.indexOf('#ablationOpen') < body.indexOf('#blockOpen'), 'ablation rules come before the generic block rules');
  assert.ok(body.indexOf('#comment') === 0, 'comments first, so tags inside comments are not highlighted');
});

test('role markers, the role marker line, headings, comments, else', () => {
  assert.ok(js(grammar.repository.role.begin!).test('{{role "system"}}'));
  assert.ok(rx('history').test('{{history}}'));
  assert.ok(rx('roleMarkerLine').test('[waypoint-role: malmm/coder]'));
  assert.ok(rx('heading', 'match', 1).test('CODE RULES:'));
  assert.ok(rx('heading', 'match', 1).test('ROBOT FUNCTIONS (already defined):'));
  assert.ok(!rx('heading', 'match', 1).test('Task: do it'));
  assert.ok(rx('heading', 'match', 0).test('## Output format'));
  assert.ok(rx('comment', 'begin', 0).test('{{!-- note --}}'));
  assert.ok(rx('comment', 'begin', 1).test('{{! note }}'));
  assert.ok(rx('else', 'match', 0).test('{{else}}') && rx('else', 'match', 0).test('{{^}}'));
});

test('language configuration: comments, brackets, auto-closing {{ }}, folding markers', () => {
  assert.deepEqual(config.comments.blockComment, ['{{!--', '--}}']);
  assert.ok(config.brackets.some(([o, c]) => o === '{{' && c === '}}'));
  assert.ok(config.autoClosingPairs.some((p) => p.open === '{{' && p.close === '}}'));
  const start = new RegExp(config.folding.markers.start);
  const end = new RegExp(config.folding.markers.end);
  assert.ok(start.test('{{#ablation "a"}}') && start.test('{{!-- #region rules --}}'));
  assert.ok(end.test('{{/ablation}}') && end.test('{{!-- #endregion --}}'));
  const word = new RegExp(config.wordPattern);
  assert.equal(word.exec('task.name}}')?.[0], 'task.name');
});
