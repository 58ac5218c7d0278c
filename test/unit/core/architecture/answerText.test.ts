// The text every parser reads first: thinking dropped, plain line endings and quotes, fenced blocks.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fencedBlocks, plainText, pythonBlocksOf } from '../../../../src/core/architecture/answerText.js';

test('plainText drops thinking, CRLF and typographic quotes; word apostrophes kept only when asked', () => {
  assert.equal(plainText('<think>draft</think>a\r\nb\rc'), 'a\nb\nc');
  assert.equal(plainText('\u201cx\u201d \u2018y\u2019 robot\u2019s'), '"x" \'y\' robot\'s');
  assert.equal(plainText('\u2018the robot\u2019s cup\u2019', { keepWordApostrophes: true }), "'the robot\u2019s cup'");
});

test('fencedBlocks: ``` or ~~~, a fence closes only with its own character at least as long, an open last block is read to the end', () => {
  const b = fencedBlocks('x\n````python\n```\ninner\n````\n~~~\ny\n```\nz');
  assert.deepEqual(b.map((x) => [x.lang, x.body, x.closed, x.line]), [['python', '```\ninner', true, 2], ['', 'y\n```\nz', false, 6]]);
  assert.deepEqual(pythonBlocksOf('```json\n{}\n```\n```py3\nx\n```\n```\ny\n```').map((x) => x.body), ['x', 'y']);
});
