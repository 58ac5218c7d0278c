// The tolerant template parser against Handlebars itself (the parser dotprompt uses): same verdict (error or not)
// on a corpus of valid and invalid snippets, and recovery that keeps blocks paired after an error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Handlebars from 'handlebars';
import { parseTemplate } from '../../../../src/core/prompt/analyze/template.js';

const CASES = [
  'a {{b}} c', '{{foo}}}', '{"a": {{x}}}', '{{{x}}}', '{{{x}}', '{{&x}}', '{{#if a}}x{{else}}y{{/if}}', '{{#if a}}x{{else if b}}y{{else}}z{{/if}}',
  '{{#if a}}x{{else}}y{{else}}z{{/if}}', '{{else}}', '{{/if}}', '{{#if a}}', '{{#if a}}{{/each}}', '{{foo bar=}}', '{{foo bar=1 baz}}',
  '{{foo (bar 1) x=(y)}}', '{{(foo)}}', '{{foo.bar}}', '{{foo/bar}}', '{{../foo}}', '{{foo/../bar}}', '{{this.foo}}', '{{foo.this}}', '{{./foo}}',
  '{{@index}}', '{{@root.foo}}', '{{@}}', '{{"str"}}', '{{1}}', '{{true}}', '{{foo true}}', '{{foo-bar}}', '{{foo?}}', '{{foo:bar}}', '{{foo$}}',
  '{{#each items as |item i|}}{{item}}{{/each}}', '{{#each items as ||}}{{/each}}', '{{#with x as |y|}}{{/with}}', '{{foo as |x|}}',
  '{{! comment }}', '{{!-- long }} comment --}}', '{{!-- unclosed', '{{! unclosed', '\\{{escaped}}', '\\\\{{real}}', '\\{{a}} {{b',
  '{{^x}}y{{/x}}', '{{^x}}y{{else}}z{{/x}}', '{{^x}}y{{else if z}}z{{/x}}', '{{^}}', '{{#if a}}x{{^}}y{{/if}}', '{{> part}}', '{{> part a=1}}',
  '{{#> layout}}x{{/layout}}', '{{#*inline "x"}}y{{/inline}}', '{{{{raw}}}} {{x}} {{{{/raw}}}}', '{{{{raw}}}} {{x}}', '{{elsewhere}}', '{{ else }}',
  '{{#ablation "a.b" label="L"}}x{{else}}y{{/ablation}}', '{{#ablation "a.b" label=}}x{{/ablation}}', '{{}}', '{{ }}', '{{foo', 'x {{foo\n\ny', '{{foo}',
  '{{foo "unterminated}}', "{{foo 'a'}}", '{{foo "a\\"b"}}', '{{[foo bar]}}', '{{foo.[bar baz]}}', '{{-1}}', '{{foo -1}}', '{{foo 1.5}}', '{{foo 1.}}',
  '{{foo.}}', '{{.}}', '{{..}}', '{{foo..bar}}', '{{~foo~}}', '{{~#if a~}}x{{~/if~}}', '{{~{foo}~}}', '{{#if}}{{/if}}', '{{/}}', '{{#}}', '{{foo=bar}}',
  '{{foo bar=baz qux=1}}', '{{foo x=1 y}}', '{{#each a}}{{/each}}{{/each}}', '{{#if a}}{{#each b}}{{/if}}', '{{json this indent=2}}',
  '{{foo bar}baz}}', '{{foo|bar}}', '{{foo)}}', '{{foo (bar}}', '{{foo null undefined}}', '{{foo @bar.baz}}', '{{foo.@bar}}', '{{ #if a}}{{/if}}',
  '{{#if a}}{{else}}{{/if}}{{else}}', 'a}}b', '{{#if a}}{{else each b}}{{/if}}', '{{#each a as |x|}}{{else}}{{/each}}', '{{#if a as |x|}}{{/if}}',
  '{{*deco}}', '{{#foo}}{{/foo}}', '{{#foo.bar}}{{/foo.bar}}', '{{#foo.bar}}{{/foo}}', '{{#"str"}}{{/"str"}}', '{{#if a}}x{{/ if}}',
  '{{else-x}}', '{{#if a}}{{else-x}}{{/if}}', '{{foo}}}}', '{{#if a}}\n{{#each b}}\n{{/each}}\n{{/if}}\n{{history}}', '{{role "system"}}\nhi {{name}}',
];

test('parser verdict equals Handlebars.parse on every corpus snippet', () => {
  const mismatches: string[] = [];
  for (const c of CASES) {
    let hbError: string | undefined;
    try {
      Handlebars.parse(c);
    } catch (e) {
      hbError = (e as Error).message;
    }
    const ours = parseTemplate(c).errors;
    if ((hbError !== undefined) !== ours.length > 0) mismatches.push(`${JSON.stringify(c)}: handlebars=${hbError ?? 'ok'} ours=${ours.map((e) => e.message).join('; ') || 'ok'}`);
  }
  assert.deepEqual(mismatches, []);
});

test('expressions: paths, data, literals, hash, sub-expressions, block params', () => {
  const t = parseTemplate('{{#each (filter items kind="box") as |it idx|}}{{../task.name}}{{@index}}{{/each}}');
  const open = t.nodes[0];
  if (open.kind !== 'open') throw new Error(`expected an open tag, got ${open.kind}`);
  assert.equal(open.call.head?.kind, 'path');
  const sub = open.call.params[0];
  assert.equal(sub.kind, 'sexpr');
  if (sub.kind !== 'sexpr') return;
  assert.deepEqual(sub.call.hash.map((h) => [h.key, h.value.kind]), [['kind', 'string']]);
  assert.deepEqual(open.call.blockParams, ['it', 'idx']);
  const up = t.nodes[1];
  if (up.kind === 'text' || up.call.head?.kind !== 'path') throw new Error('expected a path');
  assert.deepEqual([up.call.head.parts, up.call.head.depth, up.call.head.original], [['task', 'name'], 1, '../task.name']);
  assert.equal(t.blocks.length, 1);
  assert.equal(t.blocks[0].close, 3);
});

test('after an error the rest of the file is still parsed and blocks still pair', () => {
  const t = parseTemplate('{{#if a}}\n{{foo bar=}}\n{{#ablation "x"}}y{{/ablation}}\n{{/if}}\n');
  assert.equal(t.errors.length, 1);
  assert.deepEqual(t.blocks.map((b) => [b.name, b.close !== -1, b.parent]), [['if', true, -1], ['ablation', true, 0]]);
  const cut = parseTemplate('{{#if a}}\n{{foo\n{{/if}}\n');
  assert.equal(cut.errors.length, 1);
  assert.match(cut.errors[0].message, /never closed \(missing '}}'\)/);
  assert.equal(cut.blocks[0].close !== -1, true, 'the {{ that interrupts a tag starts a new tag');
  const missing = parseTemplate('{{#if a}}{{#each b}}x{{/if}}');
  assert.deepEqual(missing.errors.map((e) => e.kind), ['unclosed']);
  assert.equal(missing.errors[0].block, 1);
});

test('analysis, completion and hover never throw on mutated prompts (deterministic fuzz)', async () => {
  const { analyzePrompt, completePrompt, hoverPrompt } = await import('../../../../src/core/prompt/analyze.js');
  const { readFileSync } = await import('node:fs');
  const base = readFileSync(new URL('../../../fixtures/prompts/good.prompt', import.meta.url), 'utf8');
  const pieces = ['{{', '}}', '{{#', '{{/', '{{else}}', '"', '---\n', '\n', '(', ')', '=', '{{!--', '--}}', 'as |x|', '@', '../', '~', '}', '{', '\\', '\r\n', '[', ']'];
  let seed = 12345;
  const rnd = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  for (let round = 0; round < 300; round++) {
    let text = base;
    for (let k = 0; k < 1 + rnd(6); k++) {
      const at = rnd(text.length + 1);
      text = rnd(3) === 0 ? text.slice(0, at) + text.slice(at + rnd(20)) : text.slice(0, at) + pieces[rnd(pieces.length)] + text.slice(at);
    }
    const a = analyzePrompt(text);
    const lines = text.split('\n');
    for (let p = 0; p < 8; p++) {
      const line = rnd(lines.length);
      const pos = { line, character: rnd(lines[line].length + 1) };
      completePrompt(a, pos);
      hoverPrompt(a, pos);
    }
    for (const d of a.diagnostics) assert.ok(d.range.start.line <= d.range.end.line && d.range.end.line < lines.length, `range inside the text (round ${round})`);
  }
});
