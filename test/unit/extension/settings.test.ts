import assert from 'node:assert/strict';
import { test } from 'node:test';
import { apiKeySecretName, changedKeys, isLoopbackUrl, parseSettings, RESTART_SERVER_KEYS, RESTRICTED_KEYS, SETTING_DEFAULTS, type SettingKey } from '../../../src/extension/settings.js';

const from = (values: Partial<Record<SettingKey, unknown>>) => parseSettings((k) => values[k]);

test('unset settings give the documented defaults and no issues', () => {
  const { settings, issues } = from({});
  assert.deepEqual(issues, []);
  assert.equal(settings.model.provider, 'reference');
  assert.equal(settings.model.baseUrl, 'https://api.openai.com/v1');
  assert.deepEqual(settings.simulator, { kind: 'embedded', spec: 'embedded' });
  assert.deepEqual(settings.run, { architecture: 'malmm', task: 'stack_blocks', seed: 0, maxTurns: 150, maxConsecutiveErrors: 5, codeTimeoutSecs: 10, hostPython: false, useCache: true, keepWarm: true, vision: false });
  assert.equal(settings.model.temperature, undefined);
  assert.deepEqual(settings.model.vscodeLm, {});
  assert.equal(settings.languageServer.enabled, true);
});

test('valid values are taken, trimmed and normalised', () => {
  const { settings, issues } = from({
    'model.provider': 'openai',
    'model.baseUrl': ' http://127.0.0.1:11434/v1/ ',
    'model.name': 'llama3.1',
    'model.temperature': 0.2,
    'model.maxTokens': 800,
    'model.vscodeLm.family': 'gpt-4o',
    'simulator.kind': 'protocol',
    'simulator.endpoint': 'stdio:python3 -m waypoint_sim',
    'run.seed': 7,
    'run.codeTimeoutSecs': 2.5,
  });
  assert.deepEqual(issues, []);
  assert.equal(settings.model.baseUrl, 'http://127.0.0.1:11434/v1');
  assert.equal(settings.model.temperature, 0.2);
  assert.equal(settings.model.maxTokens, 800);
  assert.deepEqual(settings.model.vscodeLm, { family: 'gpt-4o' });
  assert.deepEqual(settings.simulator, { kind: 'protocol', endpoint: 'stdio:python3 -m waypoint_sim' });
  assert.equal(settings.run.seed, 7);
  assert.equal(settings.run.codeTimeoutSecs, 2.5);
});

test('provider reference-flawed is a valid choice (the scripted policy with seeded mistakes)', () => {
  const { settings, issues } = from({ 'model.provider': 'reference-flawed' });
  assert.deepEqual(issues, []);
  assert.equal(settings.model.provider, 'reference-flawed');
});

test('invalid values fall back to the default and each is reported with its key', () => {
  const { settings, issues } = from({
    'model.provider': 'anthropic',
    'model.baseUrl': 'ftp://x',
    'model.temperature': 5,
    'run.seed': -1,
    'run.maxTurns': 1.5,
    'run.useCache': 'yes',
    'run.task': 'stack blocks',
    'simulator.kind': 'protocol',
    'simulator.endpoint': 'tcp://host',
  });
  assert.equal(settings.model.provider, 'reference');
  assert.equal(settings.model.baseUrl, SETTING_DEFAULTS['model.baseUrl']);
  assert.equal(settings.model.temperature, undefined);
  assert.equal(settings.run.seed, 0);
  assert.equal(settings.run.maxTurns, 150);
  assert.equal(settings.run.useCache, true);
  assert.equal(settings.run.task, 'stack_blocks');
  assert.deepEqual(settings.simulator, { kind: 'embedded', spec: 'embedded' });
  const keys = issues.map((i) => i.key).sort();
  assert.deepEqual(keys, ['waypoint.model.baseUrl', 'waypoint.model.provider', 'waypoint.model.temperature', 'waypoint.run.maxTurns', 'waypoint.run.seed', 'waypoint.run.task', 'waypoint.run.useCache', 'waypoint.simulator.endpoint']);
  for (const i of issues) assert.match(i.message, /^waypoint\.[\w.]+ /);
});

test('loopback endpoints are recognised; API keys are stored per origin', () => {
  assert.equal(isLoopbackUrl('http://localhost:11434/v1'), true);
  assert.equal(isLoopbackUrl('http://127.0.0.1:8000/v1'), true);
  assert.equal(isLoopbackUrl('http://[::1]:8000/v1'), true);
  assert.equal(isLoopbackUrl('https://api.openai.com/v1'), false);
  assert.equal(isLoopbackUrl('not a url'), false);
  assert.equal(apiKeySecretName('https://api.openai.com/v1'), 'waypoint.apiKey:https://api.openai.com');
  assert.equal(apiKeySecretName('https://api.openai.com/v2/'), apiKeySecretName('https://api.openai.com/v1'));
  assert.notEqual(apiKeySecretName('https://evil.example/v1'), apiKeySecretName('https://api.openai.com/v1'));
});

test('changedKeys names exactly the settings that differ', () => {
  const a = from({}).settings;
  const b = from({ 'model.provider': 'openai', 'languageServer.enabled': false }).settings;
  assert.deepEqual(changedKeys(a, b), ['languageServer.enabled', 'model.provider']);
  assert.deepEqual(changedKeys(a, from({}).settings), []);
});

test('model.maxTokensField: max_tokens unless set to max_completion_tokens; anything else is reported and ignored', () => {
  assert.equal(from({}).settings.model.maxTokensField, 'max_tokens');
  assert.equal(from({ 'model.maxTokensField': 'max_completion_tokens' }).settings.model.maxTokensField, 'max_completion_tokens');
  const bad = from({ 'model.maxTokensField': 'max_output_tokens' });
  assert.equal(bad.settings.model.maxTokensField, 'max_tokens');
  assert.deepEqual(bad.issues.map((i) => i.key), ['waypoint.model.maxTokensField']);
});

test('architectures.paths: an array of folders (blank entries dropped); anything else is reported and ignored; a change restarts the language server', () => {
  const get = (v: unknown) => (k: SettingKey) => (k === 'architectures.paths' ? v : undefined);
  assert.deepEqual(parseSettings(get([' archs ', '', '/opt/archs'])).settings.architectures.paths, ['archs', '/opt/archs']);
  assert.deepEqual(parseSettings(get(undefined)).settings.architectures.paths, []);
  const bad = parseSettings(get('archs'));
  assert.deepEqual(bad.settings.architectures.paths, []);
  assert.deepEqual(bad.issues.map((i) => i.key), ['waypoint.architectures.paths']);
  assert.ok(RESTART_SERVER_KEYS.includes('architectures.paths'), 'the server reads the setting at start');
  assert.ok(RESTRICTED_KEYS.includes('architectures.paths'), 'a workspace cannot point an untrusted window at code');
});

test('model.embeddingModel: a model name or local:<folder> for the LLaMAR matcher, empty for none; a malformed one is reported and ignored', () => {
  assert.equal(from({}).settings.model.embeddingModel, undefined);
  assert.equal(from({ 'model.embeddingModel': ' text-embedding-3-small ' }).settings.model.embeddingModel, 'text-embedding-3-small');
  // A local folder may have spaces in its path.
  assert.equal(from({ 'model.embeddingModel': 'local:/home/me/my models/all-MiniLM-L6-v2' }).settings.model.embeddingModel, 'local:/home/me/my models/all-MiniLM-L6-v2');
  const bad = from({ 'model.embeddingModel': 'two words' });
  assert.equal(bad.settings.model.embeddingModel, undefined);
  assert.ok(bad.issues.some((i) => i.key === 'waypoint.model.embeddingModel'), JSON.stringify(bad.issues));
});

test('the embedded tabletop settings become the simulator spec (only those off their default); a bad value is named', () => {
  assert.deepEqual(from({ 'simulator.robot': 'iiwa', 'simulator.grasp': 'weld' }).settings.simulator, { kind: 'embedded', spec: 'embedded:robot=iiwa,grasp=weld' });
  assert.deepEqual(from({ 'simulator.robot': 'panda', 'simulator.motion': 'straight' }).settings.simulator, { kind: 'embedded', spec: 'embedded:motion=straight' });
  const { settings, issues } = from({ 'simulator.robot': 'ur5' });
  assert.deepEqual(settings.simulator, { kind: 'embedded', spec: 'embedded' });
  assert.deepEqual(issues.map((i) => i.message), ['waypoint.simulator.robot must be one of panda, iiwa, got "ur5"; using the default "panda"']);
});
