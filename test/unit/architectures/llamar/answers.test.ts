// LLaMAR's answer readers: the strict dict reader (JSON or a Python literal, optionally in one fenced block) and the
// TextSimilarityActionMatcher that stands in for the paper's fine-tuned SentenceBERT.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { admissibleActions, matchAction, similarity } from '../../../../src/architectures/llamar/actionMatcher.js';
import { readDictAnswer } from '../../../../src/architectures/llamar/dictAnswer.js';
import { parseActor, parseCorrector, parsePlanner, parseVerifier } from '../../../../src/architectures/llamar/parse.js';

test('a dict answer: JSON, a Python literal, or one fenced block; anything else is an error saying where', () => {
  assert.deepEqual(readDictAnswer('{"plan": ["a", "b"], "reason": "r"}'), { ok: true, value: { plan: ['a', 'b'], reason: 'r' } });
  assert.deepEqual(readDictAnswer("{'plan': ('a',), 'ok': True, 'n': None, 'x': -1.5e2,}"), { ok: true, value: { plan: ['a'], ok: true, n: null, x: -150 } });
  assert.deepEqual(readDictAnswer('Let me think.\n```python\n{"reason": "it\'s done"}\n```\nThat is all.'), { ok: true, value: { reason: "it's done" } });
  assert.deepEqual(readDictAnswer("{'a': '''multi\nline'''}"), { ok: true, value: { a: 'multi\nline' } });
  const prose = readDictAnswer('Alice goes to the fridge.');
  assert.equal(prose.ok, false);
  assert.match(!prose.ok ? prose.error : '', /expected a dict \(the whole answer, or one ```json block\); the answer starts with "Alice goes/);
  // An explanation after the dict is read past; a second dict after it is not.
  assert.deepEqual(readDictAnswer('{"a": 1} and more'), { ok: true, value: { a: 1 } });
  const trailing = readDictAnswer('{"a": 1} and {"b": 2}');
  assert.match(!trailing.ok ? trailing.error : '', /unexpected text after the dict at line 1, column 10/);
  const broken = readDictAnswer('{\n  "a": 1\n  "b": 2\n}');
  assert.match(!broken.ok ? broken.error : '', /expected ',' or '}' in the dict at line 3, column 3/);
  const two = readDictAnswer('```json\n{"a": 1}\n```\n```json\n{"b": 2}\n```');
  assert.match(!two.ok ? two.error : '', /expected one dict, found 2/);
  assert.equal(readDictAnswer('[1, 2]').ok, false);
  assert.equal(readDictAnswer('').ok, false);
});

const opts = { explore: true, exploreArgs: [3, 2] as [number, number] };
const known = ['Fridge_1', 'Tomato_1', 'Tomato_2', 'CounterTop_1', 'Faucet_1', 'Bowl_1', 'Potato_1', 'LightSwitch_1'];

test('the matcher maps free text to the closest admissible action, and the paper\'s phrases exactly', () => {
  const m = (t: string) => {
    const r = matchAction(t, known, opts);
    return r.ok ? `${r.action.name}(${r.action.args.join(',')})` : `ERR ${r.error}`;
  };
  assert.equal(m('navigate to object Fridge_1'), 'NavigateTo(Fridge_1)');
  assert.equal(m('NavigateTo(Tomato_2)'), 'NavigateTo(Tomato_2)');
  assert.equal(m('PickupObject(Tomato_1)'), 'Pickup(Tomato_1)');
  assert.equal(m('grab the tomato'), 'Pickup(Tomato_1)');
  assert.equal(m('go to the fridge'), 'NavigateTo(Fridge_1)');
  assert.equal(m('put the potato in the bowl'), 'Put(Bowl_1)');
  assert.equal(m('place it on CounterTop_1'), 'Put(CounterTop_1)');
  assert.equal(m('turn off the faucet'), 'ToggleOff(Faucet_1)');
  assert.equal(m('switch the light off'), 'ToggleOff(LightSwitch_1)');
  assert.equal(m('open the refrigerator Fridge_1'), 'Open(Fridge_1)');
  assert.equal(m('turn right'), 'Rotate(Right)');
  assert.equal(m('move forward'), 'Move(Ahead)');
  assert.equal(m('look down by angle 30'), 'LookDown(30)');
  assert.equal(m('wait for Bob'), 'Idle()');
  assert.equal(m('None'), 'Idle()');
  assert.equal(m('look around for the bread'), 'Explore(3,2)');
  assert.equal(m('Done'), 'Done()');
  assert.match(m('pick up object Apple_7'), /^ERR Apple_7 has not been seen by any robot; only objects/);
  assert.match(m('pick up object Tomato_9'), /Tomato_9 has not been seen by any robot \(seen of that type: Tomato_1, Tomato_2\)/);
  assert.match(m('sing a song'), /^ERR "sing a song" is not close to any admissible action \(closest: /);
  // Sharing only the verb (or only an object's name) with an admissible action is not enough: these score between
  // 0.3 and the 0.45 threshold and are refused, not mapped onto an object the answer never named.
  for (const t of ['open the window', 'close the door', 'pick a song', 'the tomato is red']) {
    const r = matchAction(t, known, opts);
    assert.equal(r.ok, false, `${t} -> ${r.ok ? r.action.text : ''}`);
    assert.ok(r.candidates[0]!.score >= 0.3 && r.candidates[0]!.score < 0.45, `${t}: ${r.candidates[0]!.score}`);
  }
  // Without exploration (the ablation), Explore is not admissible.
  const noExplore = matchAction('explore', known, { ...opts, explore: false });
  assert.ok(!noExplore.ok || noExplore.action.name !== 'Explore');
  // Affordances: a tomato is not a receptacle, a fridge cannot be picked up.
  const acts = admissibleActions(known, opts).map((a) => a.text);
  assert.ok(!acts.includes('put object on Tomato_1') && !acts.includes('pick up object Fridge_1'));
  assert.ok(similarity('pick up the tomato', 'pick up object Tomato_1') > similarity('pick up the tomato', 'navigate to object Tomato_1'));
});

test('module answers are read strictly: required keys, robot names of the team, lists of strings', async () => {
  const agents = ['Alice', 'Bob'];
  assert.deepEqual(parsePlanner('{"reason": "r", "plan": ["a", "b"]}'), { ok: true, value: { reason: 'r', plan: ['a', 'b'] } });
  assert.match(JSON.stringify(parsePlanner('{"reason": "r"}')), /missing key \\"plan\\"/);
  assert.match(JSON.stringify(parsePlanner('{"reason": "r", "plan": "a, b"}')), /"plan\\" must be a list of strings/);
  assert.deepEqual(parseVerifier('{"reason": "r", "completed subtasks": None}'), { ok: true, value: { reason: 'r', completed: [] } });
  assert.deepEqual(parseCorrector('{"failure reason": "far", "corrective actions": {"Alice": "navigate to object Tomato_1", "Bob": "None"}}', agents), {
    ok: true,
    value: { failureReason: 'far', corrections: { Alice: 'navigate to object Tomato_1' } },
  });
  assert.match(JSON.stringify(parseCorrector('{"failure reason": "x", "corrective actions": {"Carol": "explore"}}', agents)), /Carol/);
  const a = await parseActor('{"memory": "m", "reason": "r", "subtask": "s", "alice\'s action": "explore", "Bob\'s action": "stay idle"}', agents, known, { ...opts, keys: ['memory', 'reason', 'subtask'] });
  assert.equal(a.ok, true);
  assert.deepEqual(a.ok && Object.fromEntries(Object.entries(a.value.actions).map(([k, v]) => [k, v.action.name])), { Alice: 'Explore', Bob: 'Idle' });
});
