/**
 * A local model folder that cannot be used: one line, the cause first and the file last
 * ("local embedding model: unsupported tensor dtype I8 for ...: /models/x/model.safetensors"). Thrown while loading,
 * so before a run starts.
 */
export class LocalModelError extends Error {
  override name = 'LocalModelError';
  constructor(
    readonly reason: string,
    readonly file: string,
  ) {
    super(`local embedding model: ${reason}: ${file}`);
  }
}
