// `waypoint serve-model`: serves the reference model (a scripted policy, not an LLM) on an OpenAI-compatible
// endpoint, loopback only unless the caller names another host.
import { registerReferencePolicies } from '../core/llm/reference/policies.js';
import { architectures } from '../architectures/registry.js';
import { REFERENCE_PROFILES } from '../core/llm/reference/policy.js';
import { startReferenceServer } from '../core/llm/reference/server.js';

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

export async function serveModel(args: { port?: number; host?: string }, out: (line: string) => void): Promise<{ url: string; close(): Promise<void> }> {
  const host = args.host ?? '127.0.0.1';
  if (args.port !== undefined && (!Number.isInteger(args.port) || args.port < 0 || args.port > 65535)) {
    throw new Error(`serve-model: --port must be an integer in 0..65535, got ${args.port}`);
  }
  registerReferencePolicies(architectures);
  const server = await startReferenceServer({
    port: args.port ?? 0,
    host,
    clock: { nowMs: () => performance.now(), isoNow: () => new Date().toISOString() },
  });
  out(`reference model (scripted, not an LLM) listening on ${server.url}`);
  if (!LOOPBACK.has(host)) out(`warning: serving on ${host}, reachable from other machines; the server has no authentication`);
  out(`models: ${REFERENCE_PROFILES.join(', ')} (GET /v1/models)`);
  // Both spellings work: the client asks the endpoint what it is and sends the role headers only to this server.
  out(`use it: waypoint run --model reference --base-url ${server.url}   (or --model openai:reference, the same)`);
  return { url: server.url, close: () => server.close() };
}
