// Public surface of the model layer. Compose as: withCache(withRetries(new OpenAICompatibleClient(...), ...), cache).
export type { ModelClient, ModelError, ModelRequest, ModelResult } from './client.js';
export { OpenAICompatibleClient, type OpenAICompatibleOptions } from './openai.js';
export { withRetries, backoffMs, parseRetryAfter, timerSleep, DEFAULT_RETRY_POLICY, RETRYABLE_KINDS, type RetryPolicy, type Sleep } from './retry.js';
export { ResponseCache, withCache, canonicalJson, CACHE_KEY_VERSION, type CacheEntry } from './cache.js';
export { ReplayClient, type RecordedAnswers } from './replay.js';
export { findRoleMarker, roleMarkerLine, ROLE_MARKER_RE, type RoleRef } from './roleMarker.js';
export {
  registerPolicy,
  roleDispatchPolicy,
  defaultReferenceModels,
  defaultRolePolicies,
  RolePolicyRegistry,
  REFERENCE_MODEL_NAME,
  REFERENCE_LABEL,
  type ScriptedPolicy,
  type RolePolicyFn,
} from './reference/policy.js';
export { startReferenceServer, approxTokens, scriptedLabel, REFERENCE_HEADER, type ReferenceServer, type ReferenceServerOptions } from './reference/server.js';
