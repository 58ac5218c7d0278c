// "embedded:k=v,...": the embedded tabletop set up by one string (sweeps, compare, the debugger, the extension),
// checked before anything starts, and the settings reach the simulator.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { connectSimulator, isEmbeddedSpec, parseEmbeddedSpec, simulatorSpecProblem } from '../../../../src/core/sim/connect.js';

test('embedded specs: settings parsed; unknown keys, bad values, repeats and empty lists refused by name', () => {
  assert.deepEqual(parseEmbeddedSpec('embedded'), {});
  assert.deepEqual(parseEmbeddedSpec('embedded:robot=iiwa, grasp=weld'), { robot: 'iiwa', grasp: 'weld' });
  assert.equal(isEmbeddedSpec('embedded:robot=iiwa'), true);
  assert.equal(isEmbeddedSpec('embeddedx'), false);
  assert.equal(simulatorSpecProblem('embedded:motion=straight,perception=estimated'), undefined);
  assert.match(simulatorSpecProblem('embedded:colour=red')!, /unknown setting 'colour'.*takes grasp, motion, perception, robot/);
  assert.match(simulatorSpecProblem('embedded:robot=ur5')!, /robot is one of panda, iiwa/);
  assert.match(simulatorSpecProblem('embedded:robot')!, /robot is one of panda, iiwa/);
  assert.match(simulatorSpecProblem('embedded:robot=iiwa,robot=panda')!, /given twice/);
  assert.match(simulatorSpecProblem('embedded:')!, /names no setting/);
  assert.match(simulatorSpecProblem('embeded')!, /unknown simulator/);
});

test('the spec sets up the tabletop (its version line names the settings); the household refuses tabletop settings', async () => {
  const sim = await connectSimulator('embedded:robot=iiwa,grasp=friction,motion=straight');
  try {
    assert.match(sim.version ?? '', /friction grasps, straight-line execute_trajectory/);
    assert.match(sim.version ?? '', /KUKA iiwa 7/);
  } finally {
    await sim.close();
  }
  // The caller's own option (waypoint run --grasp) wins over the spec's.
  const weld = await connectSimulator('embedded:grasp=friction', { grasp: 'weld' });
  try {
    assert.match(weld.version ?? '', /weld grasps/);
  } finally {
    await weld.close();
  }
  await assert.rejects(connectSimulator('embedded:grasp=weld', { family: 'household' }), /embedded household has no grasp setting/);
});
