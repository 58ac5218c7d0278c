// The view line is LLaMAR's text stand-in for a robot's camera image (App. B.1): it may say only what that camera
// shows, the objects in view and the open/closed states of what is in view, never what lies inside a closed
// receptacle (issue 24).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { viewDescription } from '../../../../src/architectures/llamar/render.js';
import { createHouseholdSimulator } from '../../../../src/core/sim/household/index.js';
import type { Observation } from '../../../../src/core/sim/simulator.js';
import type { HouseholdObjectProps } from '../../../../src/protocol/household.js';

async function step(sim: ReturnType<typeof createHouseholdSimulator>, name: string, args: string[]): Promise<void> {
  const r = await sim.act([{ agent: 'Alice', name, args }, { agent: 'Bob', name: 'Idle', args: [] }]);
  const mine = (r as { results?: { ok: boolean; error?: string }[] }).results?.[0];
  if (mine) assert.equal(mine.ok, true, `${name}(${args.join(', ')}): ${mine.error}`);
}

test('bread put into the fridge: in the view line while the fridge is open, gone when it is closed, back when it is opened', async () => {
  const sim = createHouseholdSimulator();
  await sim.reset('put_bread_lettuce_tomato_fridge', 0, { agents: 2 });
  const view = async () => viewDescription(await sim.observe('Alice'), 'Alice');
  assert.match(await view(), /Bread_1 on DiningTable_1/);
  await step(sim, 'NavigateTo', ['Bread_1']);
  await step(sim, 'Pickup', ['Bread_1']);
  await step(sim, 'NavigateTo', ['Fridge_1']);
  await step(sim, 'Open', ['Fridge_1']);
  await step(sim, 'Put', ['Fridge_1']);
  assert.match(await view(), /Bread_1 in Fridge_1/);
  await step(sim, 'Close', ['Fridge_1']);
  const closed = await view();
  assert.match(closed, /Fridge_1 closed/);
  assert.doesNotMatch(closed, /Bread_1/);
  await step(sim, 'Open', ['Fridge_1']);
  assert.match(await view(), /Fridge_1 open.*Bread_1 in Fridge_1|Bread_1 in Fridge_1.*Fridge_1 open/);
});

test('a simulator that lists the contents of a closed receptacle as visible: the view line still leaves them out', async () => {
  const sim = createHouseholdSimulator();
  await sim.reset('put_bread_lettuce_tomato_fridge', 0, { agents: 2 });
  await step(sim, 'NavigateTo', ['Bread_1']);
  await step(sim, 'Pickup', ['Bread_1']);
  await step(sim, 'NavigateTo', ['Fridge_1']);
  await step(sim, 'Open', ['Fridge_1']);
  await step(sim, 'Put', ['Fridge_1']);
  const open = await sim.observe('Alice');
  // The same scene with the fridge shut, as an adapter that reports every object near the robot would send it.
  const shut = structuredClone(open) as Observation;
  const fridge = shut.state.objects.find((o) => (o.props as HouseholdObjectProps | undefined)?.label === 'Fridge_1')!;
  (fridge.props as HouseholdObjectProps).isOpen = false;
  assert.match(viewDescription(open, 'Alice'), /Bread_1 in Fridge_1/);
  const text = viewDescription(shut, 'Alice');
  assert.match(text, /Fridge_1 closed/);
  assert.doesNotMatch(text, /Bread_1/);
});
