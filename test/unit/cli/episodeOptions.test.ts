// `--persist-namespace` only ever turns sharing on: without it the run leaves the choice to the architecture's
// paper (MALMM fresh per block, trajgen one namespace per episode), so the CLI must not send an explicit false.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { episodeOptionsFromArgs } from '../../../src/cli/run.js';

test('without --persist-namespace the run sets no namespace choice; with it, one namespace', () => {
  assert.equal('persistNamespace' in episodeOptionsFromArgs({ 'persist-namespace': false, 'code-timeout': undefined }), false);
  assert.equal(episodeOptionsFromArgs({ 'persist-namespace': true, 'code-timeout': undefined }).persistNamespace, true);
});
