// How a run names a local embedding model: light enough for the extension host, which only passes the name on.
import { isAbsolute, resolve } from 'node:path';

export const LOCAL_PREFIX = 'local:';

/**
 * The folder an `embeddingModel` value names, or undefined for a model at an endpoint: `local:<dir>`, or a value
 * that reads as a path (starts with `/`, `./` or `../`), which no endpoint's model name does. Relative folders are
 * taken from `base` (the run's workspace).
 */
export function localModelDir(embeddingModel: string, base: string): string | undefined {
  const path = embeddingModel.startsWith(LOCAL_PREFIX) ? embeddingModel.slice(LOCAL_PREFIX.length) : /^\.{0,2}\//.test(embeddingModel) ? embeddingModel : undefined;
  if (path === undefined) return undefined;
  return isAbsolute(path) ? path : resolve(base, path);
}
