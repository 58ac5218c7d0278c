/**
 * A local model folder that cannot be used: one line, the cause first and the file last
 * ("unsupported tensor dtype I8 for ...: /models/x/model.safetensors"). Thrown before a run starts.
 */
export class LocalModelError extends Error {
  override name = 'LocalModelError';
  constructor(
    readonly reason: string,
    readonly file: string,
  ) {
    super(`${reason}: ${file}`);
  }
}
