// The model a run uses, from the settings: the reference model, an OpenAI-compatible endpoint (key from
// SecretStorage, asked for when missing), or a VS Code chat model behind the loopback bridge. Shared by live runs
// and paired sweeps. Undefined when the user cancelled the key prompt.
import { localModelDir } from '../../core/llm/localEmbedding/name.js';
import type { Ctx } from '../ctx.js';
import type { LaunchWire } from '../live/protocol.js';
import type { LmBridge } from '../lm/lmBridge.js';

export async function modelWireForRun(ctx: Ctx, bridge: LmBridge): Promise<LaunchWire['model'] | undefined> {
  const s = ctx.config.settings;
  // A local embedding folder runs in the worker whatever the chat model is; a model name is asked of the endpoint.
  const local = s.model.embeddingModel && localModelDir(s.model.embeddingModel, '/') !== undefined ? { embeddingModel: s.model.embeddingModel } : {};
  // The scripted reference policy, competent or with its seeded mistakes (docs/reference-model.md).
  if (s.model.provider === 'reference' || s.model.provider === 'reference-flawed') return { kind: 'reference', profile: s.model.provider, ...local };
  if (s.model.provider === 'openai') {
    const key = await ctx.keys.forRun(s.model.baseUrl);
    if (key.cancelled) return undefined;
    const field = s.model.maxTokensField === 'max_completion_tokens' ? { maxTokensField: s.model.maxTokensField } : {};
    const embed = s.model.embeddingModel ? { embeddingModel: s.model.embeddingModel } : {};
    return { kind: 'openai', model: s.model.name, baseUrl: s.model.baseUrl, apiKey: key.key, temperature: s.model.temperature, maxTokens: s.model.maxTokens, ...field, ...embed };
  }
  const lm = await bridge.endpoint(s.model.vscodeLm);
  // The loopback bridge's port changes every session: a stable client id keeps cached answers reusable.
  return { kind: 'openai', model: lm.model, baseUrl: lm.baseUrl, apiKey: lm.token, temperature: s.model.temperature, maxTokens: s.model.maxTokens, provider: 'vscode-lm', label: `${lm.model} (VS Code chat model)`, clientId: lm.model, ...local };
}
